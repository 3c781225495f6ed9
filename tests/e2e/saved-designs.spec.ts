import { type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { consentGranted } from '../../playwright.config'
import { expectNoAxeViolations, pickPhoto, shootBothWidths, urlOf, waitForHydration } from './support'
import { expect, test } from './fixtures'

const STAR = '/photo-products/ornaments/72965'
const TREE = '/photo-products/ornaments/72963'
const DESIGNS = '/photo-products/designs'
const SHOTS = '/tmp/shots/designs'

type SavedDesign = { id: string; variantId: number; backSideId: string | null; photos: Record<string, { id: string }>; updatedAt: string }

const stage = (page: Page) => page.getByTestId('preview-stage')
const slotImage = (page: Page, slot: 'left' | 'right') => page.getByRole('region', { name: 'Photos' }).locator(`[data-cell-id$="-${slot}"] img`)

async function openDesigner(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
  await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
}

async function savedDesigns(request: APIRequestContext): Promise<SavedDesign[]> {
  const res = await request.get('/v1/photo-products-designs')
  expect(res.status()).toBe(200)
  return ((await res.json()) as { designs: SavedDesign[] }).designs
}

/**
 * A one-time sign-in link for `email`, as the album account's owner would find it in their mail: asked for by
 * `asker`, read from the demo outbox by `mailbox` (a browser signed in as that shopper).
 */
async function signInLink(asker: APIRequestContext, mailbox: APIRequestContext, email: string, redirect: string) {
  expect((await asker.post('/v1/growth/sign-in-links', { data: { email, redirect } })).status()).toBe(202)
  // The link is made by a background job after the answer (the answer takes as long for any address).
  let link: string | undefined
  await expect
    .poll(
      async () => {
        const outbox = (await (await mailbox.get('/v1/demo/outbox')).json()) as { emails: { to: string; subject: string; text: string }[] }
        const mail = outbox.emails.find((e) => e.to === email && e.subject === 'Your Keepsake sign-in link')
        link = mail?.text.match(/https?:\/\/\S+\/auth\/link\?token=\S+/)?.[0]
        return link !== undefined
      },
      { message: 'the sign-in e-mail holds a link', timeout: 15_000 },
    )
    .toBe(true)
  return new URL(link!).pathname + new URL(link!).search
}

/** Another device: a fresh browser (no cookies, no local storage) that already allowed analytics, like the rest of the suite. */
const anotherDevice = (browser: Browser) => browser.newContext({ baseURL: urlOf('main'), storageState: consentGranted })

test.describe('designs saved to the account', () => {
  test('a design follows the shopper to another device, is listed in My designs, and is deleted there', async ({ page, browser, login }) => {
    test.setTimeout(180_000)
    const { email } = await login()
    let leftSrc: string | null = null
    let rightSrc: string | null = null

    await test.step('on the phone: two photos and a back side, saved to the account as they are chosen', async () => {
      await openDesigner(page, STAR)
      await pickPhoto(page, 'left', 1)
      await pickPhoto(page, 'right', 2)
      await page.getByRole('radio', { name: 'Candy Cane' }).click()
      await expect(page.getByRole('radio', { name: 'Candy Cane' })).toHaveAttribute('aria-checked', 'true')
      leftSrc = await slotImage(page, 'left').getAttribute('src')
      rightSrc = await slotImage(page, 'right').getAttribute('src')
      await expect
        .poll(async () => (await savedDesigns(page.request)).map((d) => [d.variantId, Object.keys(d.photos).length, d.backSideId]), { timeout: 15_000 })
        .toEqual([[72965, 2, '72965-3']])
    })

    const laptop = await anotherDevice(browser)
    const other = await laptop.newPage()
    await test.step('on a laptop signed in as the same shopper, the designer resumes the design', async () => {
      await other.goto(await signInLink(other.request, page.request, email, STAR))
      // The link's page signs in, then moves on once hydrated: slower than an ordinary navigation on a busy machine.
      await expect(other).toHaveURL(new RegExp(`${STAR}$`), { timeout: 30_000 })
      await waitForHydration(other)
      await expect(stage(other)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await expect(slotImage(other, 'left')).toHaveAttribute('src', leftSrc!)
      await expect(slotImage(other, 'right')).toHaveAttribute('src', rightSrc!)
      await expect(other.getByRole('radio', { name: 'Candy Cane' })).toHaveAttribute('aria-checked', 'true')
    })

    await test.step('the account menu leads to My designs, which lists it with a thumbnail', async () => {
      await other.getByRole('button', { name: /your account/ }).click()
      await other.getByTestId('account-menu').getByRole('link', { name: 'My designs' }).click()
      await expect(other).toHaveURL(new RegExp(`${DESIGNS}$`))
      const card = other.getByTestId('design-card')
      await expect(card).toHaveCount(1)
      await expect(card.getByRole('heading', { name: 'Star ornaments' })).toBeVisible()
      await expect(card).toContainText('Both photos chosen')
      await expect(card).toContainText('Last edited')
      await expect(card.getByTestId('design-thumbnail').locator('image')).toHaveCount(4)
      await expect(card.getByRole('link', { name: 'Continue your star design' })).toHaveAttribute('href', STAR)
      await expectNoAxeViolations(other)
      await shootBothWidths(other, 'designs-filled', 'designs')
    })

    await test.step('opened directly in New York, "Last edited" is New York time, not the server’s UTC (issue 32)', async () => {
      const ny = await browser.newContext({ baseURL: urlOf('main'), timezoneId: 'America/New_York', storageState: await laptop.storageState() })
      const nyPage = await ny.newPage()
      await nyPage.goto(DESIGNS)
      await waitForHydration(nyPage)
      const [design] = await savedDesigns(page.request)
      const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' }).format(
        new Date(design!.updatedAt),
      )
      await expect(nyPage.getByTestId('design-card').locator('time')).toHaveText(expected)
      await ny.close()
    })

    await test.step('Delete asks first; Keep it keeps it; Delete design removes it and shows the empty state', async () => {
      await other.setViewportSize({ width: 390, height: 844 })
      const card = other.getByTestId('design-card')
      await card.getByRole('button', { name: 'Delete your star design' }).click()
      const ask = card.getByRole('group', { name: 'Delete your star design?' })
      await expect(ask.getByRole('button', { name: 'Keep it' })).toBeFocused()
      await expectNoAxeViolations(other)
      await other.screenshot({ path: `${SHOTS}/designs-confirm-delete-390.png`, fullPage: true })
      await ask.getByRole('button', { name: 'Keep it' }).click()
      await expect(ask).toBeHidden()
      await expect(card.getByRole('button', { name: 'Delete your star design' })).toBeFocused()
      await card.getByRole('button', { name: 'Delete your star design' }).click()
      await card.getByRole('button', { name: 'Delete design' }).click()
      await expect(other.getByText('Your star design was deleted')).toBeVisible()
      await expect(other.getByTestId('designs-empty')).toContainText('No saved designs yet')
      await expect(other.getByTestId('designs-empty').getByRole('link', { name: 'Start a design' })).toBeVisible()
      expect(await savedDesigns(other.request)).toEqual([])
      await expectNoAxeViolations(other)
      // Read again, as a shopper coming back finds it (no toast over the header).
      await other.reload()
      await waitForHydration(other)
      await expect(other.getByTestId('designs-empty')).toBeVisible()
      await expectNoAxeViolations(other)
      await shootBothWidths(other, 'designs-empty', 'designs')
    })

    await test.step('back on the phone, the deleted design is gone from the designer too', async () => {
      await openDesigner(page, STAR)
      await expect(page.getByRole('button', { name: 'Choose photo for the left ornament' })).toBeVisible()
      await expect(slotImage(page, 'left')).toHaveCount(0)
      await page.waitForTimeout(1_500)
      expect(await savedDesigns(page.request)).toEqual([])
    })
    await laptop.close()
  })

  test('a draft made on this device while signed out joins the account at sign-in', async ({ page, login }) => {
    test.setTimeout(180_000)
    const { email } = await login()
    await openDesigner(page, TREE)
    await pickPhoto(page, 'left', 3)
    await pickPhoto(page, 'right', 4)
    await expect.poll(async () => (await savedDesigns(page.request)).length, { timeout: 15_000 }).toBe(1)
    // The link is asked for now, while this browser can still read the shopper's mail.
    const link = await signInLink(page.request, page.request, email, DESIGNS)

    await test.step('signed out: a new stocking design and another back for the tree stay on this device', async () => {
      expect((await page.request.delete('/v1/growth/authenticate-session')).status()).toBe(200)
      await openDesigner(page, TREE)
      await expect(slotImage(page, 'right')).toBeVisible({ timeout: 20_000 })
      await page.getByRole('radio', { name: 'Flannel' }).click()
      await expect(page.getByRole('radio', { name: 'Flannel' })).toHaveAttribute('aria-checked', 'true')
      await page
        .getByRole('navigation', { name: 'Shape' })
        .getByRole('link', { name: /Stocking/ })
        .click()
      await expect(page).toHaveURL(/\/photo-products\/ornaments\/72960$/)
      await expect(stage(page)).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
      await expect(slotImage(page, 'right')).toBeVisible({ timeout: 20_000 })
      await page.getByRole('radio', { name: 'Midnight Stars' }).click()
      await expect(page.getByRole('radio', { name: 'Midnight Stars' })).toHaveAttribute('aria-checked', 'true')
      await page.goto(DESIGNS)
      await expect(page.getByTestId('designs-signed-out')).toContainText('Sign in to see your designs')
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'designs-signed-out', 'designs')
    })

    await test.step('signing in again: My designs has both, each as last edited on this device', async () => {
      await page.goto(link)
      await expect(page).toHaveURL(new RegExp(`${DESIGNS}$`), { timeout: 30_000 })
      await waitForHydration(page)
      await expect(page.getByTestId('design-card')).toHaveCount(2, { timeout: 15_000 })
      await expect(page.getByTestId('design-card').getByRole('heading')).toHaveText(['Stocking ornaments', 'Tree ornaments'])
      const designs = await savedDesigns(page.request)
      expect(designs.map((d) => [d.variantId, Object.keys(d.photos).length, d.backSideId])).toEqual([
        [72960, 2, '72960-13'],
        [72963, 2, '72963-4'],
      ])
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'designs-two', 'designs')
    })
  })
})
