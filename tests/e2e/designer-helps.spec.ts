import sharp from 'sharp'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { expectNoAxeViolations, shootBothWidths, STAR, waitForHydration } from './support'

/**
 * Issue 32: the designer that helps. A line that is hard to read on its photo is said beside the field, with the
 * colour that reads best and a halo; the preview dialog says it too. Measured on the live preview's pixels.
 */
test.describe.configure({ timeout: 300_000 })

const stage = (page: Page) => page.getByTestId('preview-stage')

async function openDesigner(page: Page) {
  await page.goto(STAR)
  await waitForHydration(page)
  await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
}

/** A plain photo: almost white (snow, where a snow-white line vanishes) or mid grey (fog, where both snow white and ink read). */
const plainPhoto = (background: string) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background } })
    .jpeg({ quality: 90 })
    .toBuffer()

/** Uploads a photo in the slot's picker and places it (the upload that was not there before). */
async function uploadInto(page: Page, slot: 'left' | 'right', name: string, buffer: Buffer) {
  await page.getByRole('button', { name: new RegExp(`^(Choose|Change) photo for the ${slot} ornament$`) }).click()
  const dialog = page.getByRole('dialog', { name: `Choose a photo for the ${slot} ornament` })
  await expect(dialog.getByTestId('album-grid').getByRole('button').first()).toBeVisible()
  const uploads = dialog.getByRole('list', { name: 'Your uploaded photos' }).getByRole('button')
  const before = await uploads.evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-photo-id')))
  await dialog.getByTestId('photo-upload-input').setInputFiles([{ name, mimeType: 'image/jpeg', buffer }])
  await expect(uploads).toHaveCount(before.length + 1, { timeout: 60_000 })
  const ids = await uploads.evaluateAll((tiles) => tiles.map((t) => t.getAttribute('data-photo-id')))
  const added = ids.find((id) => !before.includes(id))!
  await dialog.locator(`[data-photo-id="${added}"]`).first().click()
  await expect(dialog).toBeHidden()
}

test('a line hard to read on its photo is said beside the field, with the colour that reads best and a halo', async ({ page, login }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await login()
  await openDesigner(page)
  await uploadInto(page, 'left', 'Snow_day.jpg', await plainPhoto('#f3f5f7'))
  await uploadInto(page, 'right', 'Foggy_morning.jpg', await plainPhoto('#7a7a7a'))
  await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 30_000 })

  // Snow white, the default colour, on a snowy photo.
  await page.getByRole('textbox', { name: 'Your text' }).fill('Baby’s first Christmas')
  await expect(page.getByRole('group', { name: 'Colour' }).getByRole('radio', { name: 'Snow white' })).toBeChecked()
  const warning = page.getByTestId('line-contrast-warning')
  await expect(warning).toBeVisible({ timeout: 20_000 })
  await expect(warning).toContainText('Hard to read on this photo')
  await expect(warning).toContainText(/Snow white stands out only 1\.\d:1/)
  await warning.scrollIntoViewIfNeeded()
  await expectNoAxeViolations(page)
  await shootBothWidths(page, 'designer-line-contrast', 'issue32')

  // The preview dialog says it too, from the print file.
  await page.getByRole('button', { name: 'Preview my ornament' }).click()
  const dialog = page.getByRole('dialog', { name: 'Your star ornaments' })
  await expect(dialog.getByTestId('preview-line-contrast')).toContainText('Your line on the left ornament may be hard to read', { timeout: 120_000 })
  await expect(dialog.getByTestId('preview-line-contrast')).toContainText('choose Ink')
  await dialog.getByRole('button', { name: 'Keep editing' }).click()
  await expect(dialog).toBeHidden()

  // The halo: the warning goes, and comes back without it.
  await page.getByRole('switch', { name: 'Halo around the letters' }).check()
  await expect(warning).toBeHidden()
  await expectNoAxeViolations(page)
  await shootBothWidths(page, 'designer-line-halo', 'issue32')
  await page.getByRole('switch', { name: 'Halo around the letters' }).uncheck()
  await expect(warning).toBeVisible()

  // The colour it offers: taken, and the warning goes.
  await warning.getByRole('button', { name: 'Use Ink instead' }).click()
  await expect(page.getByRole('group', { name: 'Colour' }).getByRole('radio', { name: 'Ink' })).toBeChecked()
  await expect(warning).toBeHidden()
})
