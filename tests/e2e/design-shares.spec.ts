import { type Browser, type Page } from '@playwright/test'
import { consentGranted } from '../../playwright.config'
import { expectNoSeriousAxeViolations, pickPhoto, shootBothWidths, STAR, urlOf, waitForHydration } from './support'
import { expect, test } from './fixtures'

/**
 * "Share for a look" (issue 19, part 5): a shopper sends their saved star design to their album family;
 * another member of the same family opens the link, loves it and leaves a note, which the sharer then
 * sees in the designer. Someone outside the family gets the store's 404; signed out, the page asks to
 * sign in first. Two brand-new demo guests are both members of the Okafor family (app/api/demo/accounts.ts).
 */
const SHOTS = '/tmp/shots/design-shares'

const anotherBrowser = (browser: Browser) => browser.newContext({ baseURL: urlOf('main'), storageState: consentGranted })

/** The designer's "Send to family" panel alone, at both widths: cut from the whole page scrolled to the top, so the pinned preview stays in its place. */
async function shootPanel(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.waitForTimeout(200)
    const box = await page.getByTestId('design-share-panel').boundingBox()
    expect(box).not.toBeNull()
    const margin = 16
    await page.screenshot({
      path: `${SHOTS}/${name}-${width}.png`,
      fullPage: true,
      clip: { x: Math.max(0, box!.x - margin), y: Math.max(0, box!.y - margin), width: box!.width + 2 * margin, height: box!.height + 2 * margin },
    })
  }
}

test('a design sent to the family: a member loves it and leaves a note, the sharer sees it; outsiders get 404', async ({ page, browser, login }) => {
  test.setTimeout(240_000)
  const sharerName = (await login()).firstName
  let path = ''

  await test.step('the sharer designs a star pair and sends it to their family', async () => {
    await page.goto(STAR)
    await waitForHydration(page)
    await expect(page.getByTestId('preview-stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
    await pickPhoto(page, 'left', 1)
    await pickPhoto(page, 'right', 2)
    await page.getByRole('textbox', { name: 'Your text' }).fill('Grandma · 2026')
    const panel = page.getByTestId('design-share-panel')
    await panel.getByRole('button', { name: 'Send to family' }).click()
    const share = panel.getByTestId('design-share')
    await expect(share).toHaveCount(1, { timeout: 20_000 })
    await expect(share).toContainText('Sent to The Okafor Family')
    await expect(share.getByText('No answers yet.')).toBeVisible()
    const link = await share.getByRole('textbox', { name: 'Link for The Okafor Family' }).inputValue()
    expect(link).toMatch(/\/photo-products\/shared\/[A-Za-z0-9_-]{22}$/)
    path = new URL(link).pathname
  })

  const member = await anotherBrowser(browser)
  const memberPage = await member.newPage()
  const memberName = (await login({ context: member })).firstName

  await test.step('a member of the same family sees the pair, with no prices, loves it and leaves a note', async () => {
    const res = await memberPage.goto(path)
    expect(res?.status()).toBe(200)
    await waitForHydration(memberPage)
    await expect(memberPage).toHaveTitle('A design from your family — Keepsake')
    await expect(memberPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
    await expect(memberPage.getByRole('heading', { level: 1 })).toHaveText(`${sharerName} would love your opinion`)
    const thumbnail = memberPage.getByTestId('design-thumbnail')
    await expect(thumbnail).toBeVisible()
    await expect(thumbnail.locator('image[href*="/v1/media/photos/"]')).toHaveCount(2)
    // The personal line is part of the look: drawn on each ornament of the thumbnail and named under it.
    await expect(thumbnail.getByTestId('design-thumbnail-line')).toHaveCount(2, { timeout: 15_000 })
    await expect(memberPage.getByTestId('shared-design-text')).toHaveText('Text: “Grandma · 2026” in Lora, snow white, on both ornaments')
    await expect(memberPage.locator('main')).not.toContainText('$')
    await expectNoSeriousAxeViolations(memberPage)

    const love = memberPage.getByRole('button', { name: 'Love it' })
    await expect(love).toHaveAttribute('aria-pressed', 'false')
    await love.click()
    await expect(love).toHaveAttribute('aria-pressed', 'true')

    const note = memberPage.getByRole('textbox', { name: /Leave a note/ })
    await note.fill('x'.repeat(141))
    await expect(memberPage.getByText('141/140')).toBeVisible()
    await memberPage.getByRole('button', { name: 'Send note' }).click()
    await expect(memberPage.getByRole('alert').filter({ hasText: 'A note is at most 140 characters' })).toBeVisible()
    await expect(note).toHaveAttribute('aria-invalid', 'true')
    await expectNoSeriousAxeViolations(memberPage)
    await shootBothWidths(memberPage, 'share-page-note-error', 'design-shares')

    await note.fill('  Grandma will love the star!  ')
    await memberPage.getByRole('button', { name: 'Send note' }).click()
    const said = memberPage.getByTestId('share-reactions')
    await expect(said).toContainText(`${memberName} (you)`)
    await expect(said).toContainText('Love it')
    await expect(said).toContainText('“Grandma will love the star!”')
    await expect(memberPage.getByRole('button', { name: 'Delete note' })).toBeVisible()
    await expectNoSeriousAxeViolations(memberPage)
    await shootBothWidths(memberPage, 'share-page', 'design-shares')
  })

  await test.step('the sharer sees what the family said in the designer', async () => {
    await page.reload()
    await waitForHydration(page)
    const share = page.getByTestId('design-share-panel').getByTestId('design-share')
    await expect(share).toContainText(memberName, { timeout: 20_000 })
    await expect(share).toContainText('Love it')
    await expect(share).toContainText('“Grandma will love the star!”')
    await shootPanel(page, 'designer-panel')
  })

  await test.step('someone outside the family gets 404; signed out, the page asks to sign in', async () => {
    const outsider = await anotherBrowser(browser)
    const outsiderPage = await outsider.newPage()
    const signedOut = await outsiderPage.goto(path)
    expect(signedOut?.status()).toBe(200)
    await waitForHydration(outsiderPage)
    const prompt = outsiderPage.getByTestId('shared-design-signed-out')
    await expect(prompt).toBeVisible()
    await expect(outsiderPage.getByRole('heading', { level: 1 })).toHaveText('A design from your family')
    await expect(prompt.getByRole('link', { name: 'E-mail me a sign-in link' })).toHaveAttribute('href', `/auth/sign-in?redirect=${encodeURIComponent(path)}`)
    await expect(outsiderPage.getByTestId('design-thumbnail')).toHaveCount(0)
    await expectNoSeriousAxeViolations(outsiderPage)
    await shootBothWidths(outsiderPage, 'share-page-signed-out', 'design-shares')

    // Maya is of the Rivera family; every guest is an Okafor.
    await login({ context: outsider, demoAccount: 'Maya' })
    const res = await outsiderPage.goto(path)
    expect(res?.status()).toBe(404)
    await expect(outsiderPage.getByRole('heading', { level: 1 })).toHaveText('404')
    await expect(outsiderPage.getByTestId('design-thumbnail')).toHaveCount(0)
    await outsider.close()
  })

  await test.step('the sharer stops the link: the member now gets 404', async () => {
    const share = page.getByTestId('design-share-panel').getByTestId('design-share')
    await share.getByRole('button', { name: 'Stop sharing' }).click()
    await expect(share).toHaveCount(0)
    const res = await memberPage.goto(path)
    expect(res?.status()).toBe(404)
    await member.close()
  })
})
