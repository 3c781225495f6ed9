import fs from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { type Page } from '@playwright/test'
import { sentAnalytics, sentEvent, shootBothWidths, waitForHydration } from './support'
import { expect, test } from './fixtures'

const STAR = '/photo-products/ornaments/72965'
const SHOTS = '/tmp/shots'
/** The star sheet (SPEC.md §9): 2670 × 1519, its left photo cell centred at (667.5, 760). */
const STAR_LEFT_CELL = { x: 667.5 / 2670, y: 760 / 1519 }

const stage = (page: Page) => page.getByTestId('preview-stage')

/** Stricter than the shared helper: no axe violation of any impact. */
async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

async function openDesigner(page: Page, path = STAR) {
  await page.goto(path)
  await waitForHydration(page)
  await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
}

/** Opens the picker from a slot and chooses the nth photo of the album grid. */
async function pickPhoto(page: Page, slot: 'left' | 'right', nth: number) {
  await page.getByRole('button', { name: new RegExp(`^(Choose|Change) photo for the ${slot} ornament$`) }).click()
  const dialog = page.getByRole('dialog', { name: `Choose a photo for the ${slot} ornament` })
  await expect(dialog).toBeVisible()
  const tiles = dialog.getByTestId('album-grid').getByRole('button')
  await expect(tiles.nth(nth)).toBeVisible()
  await tiles.nth(nth).click()
  await expect(dialog).toBeHidden()
}

const slotImage = (page: Page, slot: 'left' | 'right') => page.getByRole('region', { name: 'Photos' }).locator(`[data-cell-id$="-${slot}"] img`)

/** The colours of a 7 × 7 grid of pixels around a point of the preview canvas (fractions of its size). */
/** The RGBA bytes of regions of the preview canvas (fractions of its size), read from a 2D copy of it. */
async function canvasPixels(page: Page, regions: { x: number; y: number; width: number; height: number }[]) {
  return page.evaluate((rs) => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="preview-stage"] canvas')!
    const copy = document.createElement('canvas')
    copy.width = canvas.width
    copy.height = canvas.height
    const ctx = copy.getContext('2d', { willReadFrequently: true })!
    ctx.drawImage(canvas, 0, 0)
    return rs.map((r) =>
      Array.from(
        ctx.getImageData(
          Math.round(r.x * canvas.width),
          Math.round(r.y * canvas.height),
          Math.max(1, Math.round(r.width * canvas.width)),
          Math.max(1, Math.round(r.height * canvas.height)),
        ).data,
      ),
    )
  }, regions)
}

/** The colours of a 7 × 7 grid of single pixels around a point of the preview canvas (fractions of its size). */
async function canvasColours(page: Page, at: { x: number; y: number }) {
  const points = [-3, -2, -1, 0, 1, 2, 3].flatMap((i) =>
    [-3, -2, -1, 0, 1, 2, 3].map((j) => ({ x: at.x + i * 0.02, y: at.y + j * 0.035, width: 0, height: 0 })),
  )
  return (await canvasPixels(page, points)).map((d) => [d[0]!, d[1]!, d[2]!] as [number, number, number])
}

/** Most of the sampled pixels are the deep blue of Midnight Stars (a few land on its stars and moon). */
const mostlyNightBlue = (colours: [number, number, number][]) =>
  colours.filter(([r, g, b]) => b > r + 25 && b >= g && (r + g + b) / 3 < 120).length / colours.length > 0.6

/** The colours once the preview has stopped changing (two reads 250 ms apart agree): a busy machine draws late. */
async function stableColours(page: Page, at: { x: number; y: number }) {
  let last = JSON.stringify(await canvasColours(page, at))
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250)
    const now = JSON.stringify(await canvasColours(page, at))
    if (now === last) return JSON.parse(now) as [number, number, number][]
    last = now
  }
  throw new Error('The preview kept changing')
}

async function settled(page: Page) {
  // The flip is two 150 ms halves; then the next frame is drawn.
  await page.waitForTimeout(450)
}

test.describe('the ornament designer', () => {
  // WebGL here is SwiftShader on the CPU: starting pixi takes seconds, more on a busy machine (a personal-lines
  // test takes about 60 s alone and has taken three times that on a loaded CI machine).
  test.describe.configure({ timeout: 300_000 })
  test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }))

  for (const width of [390, 1280] as const) {
    test(`designs a star at ${width}px: photos, drag, zoom, back side, reload, preview`, async ({ page, login }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await login()
      await openDesigner(page)
      expect(await page.evaluate(() => document.querySelector('canvas') !== null)).toBe(true)
      await expect(page.getByRole('link', { name: /^Star/ })).toHaveAttribute('aria-current', 'page')
      const previewButton = page.getByRole('button', { name: 'Preview my ornament' })
      await expect(previewButton).toBeDisabled()

      await pickPhoto(page, 'left', 0)
      await pickPhoto(page, 'right', 3)
      await expect(slotImage(page, 'left')).toBeVisible({ timeout: 20_000 })
      await expect(slotImage(page, 'right')).toBeVisible({ timeout: 20_000 })
      await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
      await expect(previewButton).toBeEnabled()

      // Drag the left photo diagonally: it moves (and Undo wakes up) on whichever axis has room.
      const canvas = stage(page).locator('canvas')
      await canvas.scrollIntoViewIfNeeded()
      const box = (await canvas.boundingBox())!
      const from = { x: box.x + box.width * STAR_LEFT_CELL.x, y: box.y + box.height * STAR_LEFT_CELL.y }
      await page.mouse.move(from.x, from.y)
      await page.mouse.down()
      await page.mouse.move(from.x + 25, from.y + 25, { steps: 6 })
      await page.mouse.up()
      const adjust = page.getByRole('region', { name: /^Adjust the photo on the / })
      await expect(adjust.getByRole('heading')).toHaveText('Adjust the photo on the left ornament')
      await expect(page.locator('[data-cell-id$="-left"]')).toHaveAttribute('data-selected', 'true')

      // Zoom with the slider: to the top (the demo photo may look soft there, and says why), then back to 1.5× (great).
      const leftSlot = page.locator('[data-cell-id$="-left"]')
      await expect(leftSlot.getByRole('status')).toHaveText('Left ornament print quality: ✓Great for print')
      const slider = adjust.getByRole('slider', { name: 'Zoom' })
      await slider.focus()
      await page.keyboard.press('End')
      await expect(adjust.getByText('5.0×')).toBeVisible()
      await expect(leftSlot.getByRole('status')).toHaveText('Left ornament print quality: !May look soft')
      await expect(leftSlot.getByTestId('print-quality-reason')).toHaveText(
        /^This photo is \d+ × \d+ and zoomed to 5\.0×: about \d+ dpi at print size \(150 or more prints sharp\)\. Zoom out to \d\.\d× or less, or choose a larger photo\.$/,
      )
      await expectNoAxeViolations(page)
      await page.keyboard.press('Home')
      for (let i = 0; i < 50; i++) await page.keyboard.press('ArrowRight')
      await expect(adjust.getByText('1.5×')).toBeVisible()
      await expect(leftSlot.getByRole('status')).toHaveText('Left ornament print quality: ✓Great for print')
      await expect(leftSlot.getByTestId('print-quality-reason')).toHaveCount(0)
      await expect(adjust.getByRole('button', { name: 'Undo' })).toBeEnabled()

      // The keyboard on the preview: ] turns the selected photo 5°.
      await stage(page).getByRole('application').focus()
      await page.keyboard.press(']')
      await page.keyboard.press('Shift+ArrowUp')

      await settled(page)
      const frontColours = await stableColours(page, STAR_LEFT_CELL)
      await page.evaluate(() => window.scrollTo(0, 0))
      await page.screenshot({ path: `${SHOTS}/designer-${width}-front.png` })
      await expectNoAxeViolations(page)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)

      // Back side: Midnight Stars, and the preview turns over to show it.
      const midnight = page.getByRole('radio', { name: 'Midnight Stars' })
      await midnight.click()
      await expect(midnight).toHaveAttribute('aria-checked', 'true')
      await expect(stage(page)).toHaveAttribute('data-side', 'back')
      await expect(page.getByRole('button', { name: 'Back', exact: true })).toHaveAttribute('aria-pressed', 'true')
      await expect.poll(() => canvasColours(page, STAR_LEFT_CELL).then(mostlyNightBlue), { timeout: 10_000 }).toBe(true)
      await settled(page)
      // Where the shopper is: at the back-side grid, with the preview pinned in view above it.
      await expect(stage(page)).toBeInViewport()
      await page.screenshot({ path: `${SHOTS}/designer-${width}-back.png` })
      await expectNoAxeViolations(page)

      // Front again.
      await page.getByRole('button', { name: 'Front', exact: true }).click()
      await expect(stage(page)).toHaveAttribute('data-side', 'front')
      // The flip and the redraw take seconds in software WebGL on a busy machine: wait for the state, not for a speed.
      await expect.poll(() => canvasColours(page, STAR_LEFT_CELL), { timeout: 20_000 }).toEqual(frontColours)

      // The draft survives a reload: same photos, placement and back side.
      const leftSrc = await slotImage(page, 'left').getAttribute('src')
      const rightSrc = await slotImage(page, 'right').getAttribute('src')
      await page.reload()
      await waitForHydration(page)
      await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await expect(slotImage(page, 'left')).toHaveAttribute('src', leftSrc!)
      await expect(slotImage(page, 'right')).toHaveAttribute('src', rightSrc!)
      await expect(page.getByRole('radio', { name: 'Midnight Stars' })).toHaveAttribute('aria-checked', 'true')
      await expect(adjust.getByText('1.5×')).toBeVisible()
      await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
      // Seen failing at 5 s in a CI run (passed on its retry): the reloaded preview redraws its photos after they load.
      await expect.poll(() => canvasColours(page, STAR_LEFT_CELL), { timeout: 20_000 }).toEqual(frontColours)

      // The server's preview: two mockups, front and back.
      await previewButton.click()
      const result = page.getByRole('dialog', { name: 'Your star ornaments' })
      await expect(result).toBeVisible({ timeout: 60_000 })
      await expect(result.getByText('This is what we’ll print')).toBeVisible()
      const mockups = result.getByRole('img', { name: /^The (front|back) of your / })
      await expect(mockups).toHaveCount(2)
      for (const img of await mockups.all()) {
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 20_000 }).toBe(true)
      }
      await expect(result.getByRole('img', { name: /The back of your star ornament pair: Midnight Stars/ })).toBeVisible()
      // The server's grades of the two photos (the left at 1.5×, the right at 1×: both great).
      const quality = result.getByRole('region', { name: 'Print quality' }).getByRole('listitem')
      await expect(quality).toHaveText([
        /^Left ornament.*Great for print.*about \d+ dpi at print size$/,
        /^Right ornament.*Great for print.*about \d+ dpi at print size$/,
      ])
      await page.screenshot({ path: `${SHOTS}/designer-${width}-preview.png` })
      await expectNoAxeViolations(page)
      await result.getByRole('button', { name: 'Keep editing' }).click()
      await expect(result).toBeHidden()
      // Issue 32: however the dialog closes, focus goes back to the button that asked for it, not to <body>.
      await expect(previewButton).toBeFocused()
      for (const close of ['Escape', 'the ×'] as const) {
        await page.keyboard.press('Enter')
        await expect(result).toBeVisible({ timeout: 60_000 })
        if (close === 'Escape') await page.keyboard.press('Escape')
        else await result.getByRole('button', { name: 'Close' }).click()
        await expect(result, close).toBeHidden()
        await expect(previewButton, close).toBeFocused()
      }
    })
  }

  /** The star's left text band (ornaments.ts): centred at (667.5, 1150), 621 × 140 template pixels. */
  const STAR_TEXT_BAND = { x: (667.5 - 310) / 2670, y: (1150 - 70) / 1519, width: 621 / 2670, height: 140 / 1519 }
  /** The right ornament's band: the left one mirrored across the sheet. */
  const STAR_RIGHT_TEXT_BAND = { ...STAR_TEXT_BAND, x: (2670 - 667.5 - 310) / 2670 }

  /** Every pixel of a region of the preview canvas (fractions of its size), to tell whether anything was drawn there. */
  const canvasRegion = async (page: Page, region: { x: number; y: number; width: number; height: number }) => (await canvasPixels(page, [region]))[0]!.join(',')

  for (const width of [390, 1280] as const) {
    test(`puts personal lines on the star at ${width}px: typed, drawn, an emoji refused, one for each ornament, kept, in the cart`, async ({ page, login }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await login()
      await openDesigner(page)
      await pickPhoto(page, 'left', 1)
      await pickPhoto(page, 'right', 2)
      await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
      await settled(page)
      const withoutText = await canvasRegion(page, STAR_TEXT_BAND)

      const field = page.getByRole('textbox', { name: 'Your text' })
      await field.fill('Ava · 2025')
      await expect(page.getByText('10/40')).toBeVisible()
      // A tap on the visible swatch (the radio inside it is visually hidden).
      for (const name of ['Dancing Script', 'Gold'])
        await page
          .locator('label')
          .filter({ has: page.getByRole('radio', { name, exact: true }) })
          .click()
      await expect(page.getByRole('group', { name: 'Typeface' }).getByRole('radio', { name: 'Dancing Script' })).toBeChecked()
      await expect(page.getByRole('group', { name: 'Colour' }).getByRole('radio', { name: 'Gold' })).toBeChecked()
      await expect.poll(() => canvasRegion(page, STAR_TEXT_BAND), { timeout: 10_000 }).not.toEqual(withoutText)
      await settled(page)
      const drawn = await canvasRegion(page, STAR_TEXT_BAND)
      await field.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SHOTS}/designer-text-${width}.png` })
      await expectNoAxeViolations(page)

      // An emoji: refused in the field, named, and kept out of the preview (the last line that can be printed stays).
      await field.fill('Ava 🎄')
      const refusal = page.getByRole('alert').filter({ hasText: 'cannot print' })
      await expect(refusal).toHaveText(/^Dancing Script cannot print “🎄”/)
      await expect(field).toHaveAttribute('aria-invalid', 'true')
      const describedBy = (await field.getAttribute('aria-describedby'))!.split(' ')
      expect(describedBy).toContain(await refusal.getAttribute('id'))
      await expect(page.getByRole('button', { name: 'Preview my ornament' })).toBeDisabled()
      await expect(page.getByText('Fix your text to preview')).toBeVisible()
      await settled(page)
      expect(await canvasRegion(page, STAR_TEXT_BAND)).toEqual(drawn)
      await page.screenshot({ path: `${SHOTS}/designer-text-refused-${width}.png` })
      await expectNoAxeViolations(page)

      // 41 characters are refused too; the counter says how many.
      await field.fill('a'.repeat(41))
      await expect(page.getByText('41/40')).toBeVisible()
      await expect(page.getByRole('alert').filter({ hasText: 'at most 40' })).toBeVisible()

      await field.fill('Ava · 2025')
      await expect(page.getByRole('button', { name: 'Preview my ornament' })).toBeEnabled()
      await expect.poll(() => canvasRegion(page, STAR_TEXT_BAND)).toEqual(drawn)

      // A line for each ornament: the left one keeps Ava, the right one gets its own line, typeface and colour.
      const rightWithAva = await canvasRegion(page, STAR_RIGHT_TEXT_BAND)
      await page
        .locator('label')
        .filter({ has: page.getByRole('radio', { name: 'A line for each' }) })
        .click()
      const leftGroup = page.getByRole('group', { name: 'Left ornament' })
      const rightGroup = page.getByRole('group', { name: 'Right ornament' })
      const leftField = leftGroup.getByRole('textbox', { name: 'Text on the left ornament' })
      const rightField = rightGroup.getByRole('textbox', { name: 'Text on the right ornament' })
      await expect(leftField).toHaveValue('Ava · 2025')
      await expect(rightField).toHaveValue('Ava · 2025')
      await rightField.fill('Leo')
      for (const name of ['Montserrat', 'Pine green'])
        await rightGroup
          .locator('label')
          .filter({ has: page.getByRole('radio', { name, exact: true }) })
          .click()
      await expect(rightGroup.getByRole('radio', { name: 'Montserrat' })).toBeChecked()
      await expect(leftGroup.getByRole('radio', { name: 'Dancing Script' })).toBeChecked()
      await expect.poll(() => canvasRegion(page, STAR_RIGHT_TEXT_BAND), { timeout: 10_000 }).not.toEqual(rightWithAva)
      await settled(page)
      expect(await canvasRegion(page, STAR_TEXT_BAND)).toEqual(drawn)
      const drawnRight = await canvasRegion(page, STAR_RIGHT_TEXT_BAND)
      await rightField.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SHOTS}/designer-text-each-${width}.png` })
      await page.getByRole('region', { name: /^Personal line/ }).screenshot({ path: `${SHOTS}/designer-text-each-controls-${width}.png` })
      await expectNoAxeViolations(page)

      // The draft keeps both lines: once it holds them, a reload shows them.
      const savedDraft = () =>
        page.evaluate(() =>
          Object.keys(localStorage)
            .filter((k) => k.startsWith('keepsake.design.'))
            .map((k) => localStorage.getItem(k))
            .join('\n'),
        )
      await expect
        .poll(
          async () => {
            const draft = await savedDraft()
            return ['"Leo"', '"montserrat"'].every((part) => draft.includes(part))
          },
          { message: 'the draft holds the right line' },
        )
        .toBe(true)
      await page.reload()
      await waitForHydration(page)
      await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await expect(page.getByRole('radio', { name: 'A line for each' })).toBeChecked()
      await expect(leftField).toHaveValue('Ava · 2025')
      await expect(rightField).toHaveValue('Leo')
      await expect(leftGroup.getByRole('group', { name: 'Typeface' }).getByRole('radio', { name: 'Dancing Script' })).toBeChecked()
      await expect(leftGroup.getByRole('group', { name: 'Colour' }).getByRole('radio', { name: 'Gold' })).toBeChecked()
      await expect(rightGroup.getByRole('group', { name: 'Colour' }).getByRole('radio', { name: 'Pine green' })).toBeChecked()
      await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
      await expect.poll(() => canvasRegion(page, STAR_TEXT_BAND), { timeout: 10_000 }).toEqual(drawn)
      await expect.poll(() => canvasRegion(page, STAR_RIGHT_TEXT_BAND), { timeout: 10_000 }).toEqual(drawnRight)

      // "My designs" shows the account's copy with both lines, drawn in its thumbnail and named under it.
      await expect
        .poll(async () => (await page.request.get('/v1/photo-products-designs')).json().then((b) => b.designs[0]?.text?.right?.line), { timeout: 15_000 })
        .toBe('Leo')
      await page.goto('/photo-products/designs')
      await waitForHydration(page)
      const card = page.getByTestId('design-card')
      await expect(card.getByTestId('design-card-text')).toHaveText('Text: Left: “Ava · 2025” in Dancing Script, gold; Right: “Leo” in Montserrat, pine green')
      await expect(card.getByTestId('design-thumbnail-line')).toHaveCount(2, { timeout: 15_000 })
      await expect(card.getByTestId('design-thumbnail-line').last()).toHaveAttribute('fill', '#1f5c45')
      await expectNoAxeViolations(page)
      await page.screenshot({ path: `${SHOTS}/designs-text-${width}.png` })
      await page.goBack()
      await waitForHydration(page)
      await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })

      // Printed, and named in the cart.
      await page.getByRole('button', { name: 'Preview my ornament' }).click()
      const dialog = page.getByRole('dialog', { name: 'Your star ornaments' })
      await expect(dialog).toBeVisible({ timeout: 60_000 })
      await dialog.getByRole('button', { name: /^Add to cart/ }).click()
      await expect(page).toHaveURL(/\/photo-products\/cart$/, { timeout: 30_000 })
      await expect(page.getByTestId('cart-line-text')).toHaveText('Left: “Ava · 2025” in Dancing Script, gold; Right: “Leo” in Montserrat, pine green')
      if (width === 390) return

      // Issue 19, part 4: bought, then ordered again a year on, with the year offered first.
      await page.getByRole('button', { name: 'Checkout' }).click()
      await expect(page).toHaveURL(/\/utils\/checkout\//)
      await waitForHydration(page)
      await expect(page.getByTestId('order-line')).toContainText('Left: “Ava · 2025” in Dancing Script, gold; Right: “Leo” in Montserrat, pine green')
      await page.getByLabel('Address line 1').fill('12 Holly Lane')
      await page.getByLabel('City').fill('Portland')
      await page.getByLabel('State').selectOption('OR')
      await page.getByLabel('ZIP code').fill('97201')
      await page.getByLabel('Card number').fill('4242424242424242')
      await page.getByRole('button', { name: /^Pay / }).click()
      await expect(page).toHaveURL(/\/photo-products\/checkout\/complete/, { timeout: 30_000 })
      await expect(page.getByTestId('order-line')).toContainText('Left: “Ava · 2025” in Dancing Script, gold; Right: “Leo” in Montserrat, pine green', {
        timeout: 30_000,
      })
      await page.goto('/photo-products/orders')
      await waitForHydration(page)
      await page.getByRole('button', { name: /^Order again/ }).click()
      const offer = page.getByRole('group', { name: /^Your text says “Ava · 2025”\. Change 2025 to \d{4} before ordering again\?$/ })
      await expect(offer).toBeVisible()
      const thisYear = new Date().getFullYear()
      await expect(offer.getByRole('button', { name: `Change to ${thisYear}` })).toBeFocused()
      await expectNoAxeViolations(page)
      // The offer on a phone as well (this part of the test runs at 1280 px only).
      await page.setViewportSize({ width: 390, height: 844 })
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'orders-again-year', 'designer')
      await offer.getByRole('button', { name: `Change to ${thisYear}` }).click()
      await expect(page).toHaveURL(/\/photo-products\/cart$/, { timeout: 60_000 })
      await expect(page.getByTestId('cart-line-text')).toHaveText(`Left: “Ava · ${thisYear}” in Dancing Script, gold; Right: “Leo” in Montserrat, pine green`)
    })
  }

  test('an unknown variant is the 404 page', async ({ page }) => {
    for (const path of ['/photo-products/ornaments/1', '/photo-products/ornaments/star', '/photo-products/ornaments/072965']) {
      const res = await page.goto(path)
      expect(res?.status()).toBe(404)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('404')
      await expect(page.getByText('Page Not Found')).toBeVisible()
    }
  })

  test('changing shape keeps the photos and starts their placement afresh', async ({ page, login }) => {
    await login()
    await openDesigner(page)
    await pickPhoto(page, 'left', 1)
    await pickPhoto(page, 'right', 2)
    const leftSrc = await slotImage(page, 'left').getAttribute('src')
    const rightSrc = await slotImage(page, 'right').getAttribute('src')
    await page.getByRole('radio', { name: 'Candy Cane' }).click()
    await page.getByRole('link', { name: /^Tree/ }).click()
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72963$/)
    // The URL changes first; the new shape's page follows once its data is in (slow on a busy CPU).
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Design your tree ornaments', { timeout: 15_000 })
    await expect(page.getByRole('link', { name: /^Tree/ })).toHaveAttribute('aria-current', 'page')
    await expect(slotImage(page, 'left')).toHaveAttribute('src', leftSrc!)
    await expect(slotImage(page, 'right')).toHaveAttribute('src', rightSrc!)
    await expect(page.getByRole('radio', { name: 'Candy Cane' })).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByRole('region', { name: /^Adjust the photo on the / }).getByText('1.0×')).toBeVisible()
    await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
  })

  test('explains a failed preview in a toast with Retry', async ({ page, login }) => {
    const sent = sentAnalytics(page)
    await login()
    await openDesigner(page, '/photo-products/ornaments/72960')
    await pickPhoto(page, 'left', 6)
    await pickPhoto(page, 'right', 7)
    // Signed out, the draft is still here but the album API refuses to render it.
    expect((await page.request.delete('/v1/growth/authenticate-session')).status()).toBe(200)
    await openDesigner(page, '/photo-products/ornaments/72960')
    await expect(slotImage(page, 'right')).toBeVisible({ timeout: 20_000 })
    await page.getByRole('button', { name: 'Preview my ornament' }).click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'We could not make your preview' })
    await expect(toast).toBeVisible({ timeout: 20_000 })
    await expect(toast.getByRole('button', { name: 'Retry' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Preview my ornament' })).toBeEnabled()
    // The failure is recorded with what failed and why.
    const failed = await sentEvent(sent, 'PodPreviewFailure')
    expect(failed.properties).toEqual({ variantId: 72960, pseudoTemplateId: expect.any(String), backSideId: expect.any(String), message: expect.any(String) })
    expect(failed.uuid).toBeNull()
  })

  test('a preview made while the connection drops says so, with a Retry that makes it once back online (issue 42, item 17)', async ({
    page,
    context,
    login,
  }) => {
    await login()
    await openDesigner(page)
    await pickPhoto(page, 'left', 3)
    await pickPhoto(page, 'right', 4)
    await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
    const preview = page.getByRole('button', { name: 'Preview my ornament' })
    // Offline, the toaster's own code cannot be fetched: the note is shown plainly, with the same words and Retry.
    const lost = page.getByRole('alert').filter({ hasText: 'We could not make your preview: the connection was lost.' })

    await test.step('offline: the note says the connection was lost, offers Retry, and the button comes back', async () => {
      await context.setOffline(true)
      await preview.click()
      await expect(lost.first()).toBeVisible()
      await expect(lost.first().getByRole('button', { name: 'Retry' })).toBeVisible()
      await expect(page.getByText('Making your preview…')).toHaveCount(0)
      await expect(preview).toBeEnabled()
      await expectNoAxeViolations(page)
    })

    await test.step('back online, the request cut off mid-way: the same words, and Retry makes the preview', async () => {
      await context.setOffline(false)
      let cut = 0
      await page.route('**/_serverFn/**', (route) => {
        const body = route.request().postData() ?? ''
        if (!body.includes('pseudoTemplateId') || !body.includes('cells') || body.includes('printAreas')) return route.fallback()
        cut++
        return route.abort('internetdisconnected')
      })
      await preview.click()
      await expect.poll(() => cut).toBeGreaterThan(0)
      // The toaster could not be fetched offline, so this page goes on showing its notes plainly.
      const toast = lost.first()
      await expect(toast).toBeVisible()
      await expect(preview).toBeEnabled()
      await page.unrouteAll()
      await toast.getByRole('button', { name: 'Retry' }).click()
      await expect(page.getByRole('dialog', { name: 'Your star ornaments' })).toBeVisible({ timeout: 60_000 })
    })
  })

  // The refusal is told inside the modal, not in a toast beneath it, and a signed-out shopper is offered Sign in, not a Retry that cannot help.
  test('Add to cart failing inside the preview dialog says why there, with the action that fixes it', async ({ page, context, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await login()
    await openDesigner(page)
    await pickPhoto(page, 'left', 3)
    await pickPhoto(page, 'right', 4)
    await expect(stage(page).getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
    await page.getByRole('button', { name: 'Preview my ornament' }).click()
    const dialog = page.getByRole('dialog', { name: 'Your star ornaments' })
    await expect(dialog).toBeVisible({ timeout: 60_000 })

    await test.step('no answer at all: the dialog says so and Try again adds it', async () => {
      await page.route('**/_serverFn/**', (route) => (route.request().postData()?.includes('printAreas') ? route.abort('connectionreset') : route.fallback()))
      await dialog.getByRole('button', { name: /^Add to cart/ }).click()
      const problem = dialog.getByTestId('add-to-cart-problem')
      await expect(problem).toContainText('We couldn’t add your ornament to the cart. We could not reach Keepsake.')
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'preview-add-failed')
      await page.unrouteAll()
      await problem.getByRole('button', { name: 'Try again' }).click()
      await expect(page).toHaveURL(/\/photo-products\/cart$/, { timeout: 30_000 })
    })

    await test.step('signed out in another tab: the dialog says so and offers sign-in that comes back here', async () => {
      await page.goto(STAR)
      await waitForHydration(page)
      await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await page.getByRole('button', { name: 'Preview my ornament' }).click()
      await expect(dialog).toBeVisible({ timeout: 60_000 })
      // Another tab signs out: the session ends on the server and the browser's cookie goes.
      expect((await context.request.delete('/v1/growth/authenticate-session')).status()).toBe(200)
      await dialog.getByRole('button', { name: /^Add to cart/ }).click()
      const problem = dialog.getByTestId('add-to-cart-problem')
      await expect(problem).toContainText('You’re signed out, so your ornament isn’t in the cart yet.')
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
      const signIn = problem.getByRole('link', { name: 'Sign in' })
      await expect(signIn).toHaveAttribute('href', `/utils/demo-sign-in?redirect=${encodeURIComponent(STAR)}`)
      await signIn.click()
      await expect(page).toHaveURL(/\/utils\/demo-sign-in\?redirect=/)
    })
  })

  test('a refused upload inside the photo dialog is told inside the dialog, its Retry clickable there', async ({ page, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await login()
    await openDesigner(page)
    await page.getByRole('button', { name: /^(Choose|Change) photo for the left ornament$/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Choose a photo for the left ornament' })
    await expect(dialog.getByTestId('album-grid').getByRole('button').first()).toBeVisible()
    await page.clock.install()
    await dialog.getByTestId('photo-upload-input').setInputFiles([{ name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('not really a photo') }])
    for (let i = 0; i < 3; i++) await page.clock.runFor(4_100)
    const note = dialog.getByTestId('dialog-note').filter({ hasText: 'Upload was refused: The file is not a JPEG image' })
    await expect(note).toBeVisible({ timeout: 15_000 })
    await expect(note).toHaveAttribute('role', 'alert')
    // Nothing went to the page's toaster beneath the modal.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'dialog-note')
    // Clickable where it is: Retry sends the file again (refused again at once, so the request is what shows it).
    const resent = page.waitForRequest((request) => request.method() === 'PUT')
    await note.getByRole('button', { name: 'Retry' }).click()
    await resent
    await expect(note).toBeVisible()
  })

  test('ignores a corrupt draft', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('keepsake.design.72960', '{"photos":{"stocking-left":{"id":"nope","url":"javascript:alert(1)"}}'))
    await openDesigner(page, '/photo-products/ornaments/72960')
    await expect(page.getByRole('button', { name: 'Choose photo for the left ornament' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Preview my ornament' })).toBeDisabled()
  })

  test('is one tap from the ornament cards and from the chosen photos', async ({ page, login }) => {
    await login()
    await page.goto('/photo-products')
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Design yours: Star Photo Ornament' }).click()
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72965$/)

    await page.goto('/photo-products/photos')
    await waitForHydration(page)
    const tiles = page.getByTestId('album-grid').getByRole('button')
    await tiles.nth(4).click()
    await tiles.nth(5).click()
    const chosenIds = await Promise.all([4, 5].map((i) => tiles.nth(i).getAttribute('data-photo-id')))
    await page.getByRole('link', { name: 'Choose your ornament' }).click()
    // The chosen photos land once the designer has read the shopper's saved design; only then does the URL drop ?photos=chosen.
    // With four servers sharing two cores that has taken over 15 s (a CI run of 2026-11-28): a wide wait for that state.
    await expect(slotImage(page, 'left')).toHaveAttribute('src', new RegExp(chosenIds[0]!), { timeout: 45_000 })
    await expect(slotImage(page, 'right')).toHaveAttribute('src', new RegExp(chosenIds[1]!))
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72965$/)
  })
})
