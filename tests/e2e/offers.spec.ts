import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations, waitForHydration } from './support'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const DEMO_OFFERS = ['Little Reader Book Club', 'Supper Crate', 'Splash Swim School', 'Bindery & Co.']
const OFFER = '/fmn/offers/little-reader-books'

/** Counts analytics events the page sends, by name. */
function watchEvents(page: Page) {
  const bodies: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') bodies.push(request.postData() ?? '')
  })
  return (name: string) => bodies.reduce((n, body) => n + body.split(`"${name}"`).length - 1, 0)
}

test.describe('partner offer wall', () => {
  test('lists the demo offers and opens one', async ({ page }) => {
    const sent = watchEvents(page)
    await page.goto('/fmn/offer-wall')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Offer wall')
    const cards = page.getByTestId('offer-card')
    await expect(cards).toHaveCount(4)
    for (const partner of DEMO_OFFERS) await expect(page.getByRole('list', { name: 'Partner offers' })).toContainText(partner)
    await expect(cards.first().getByTestId('offer-reward')).toHaveText('Reward: 3 books for $5')
    await expect(cards.first().getByRole('img')).toHaveJSProperty('complete', true)
    expect(
      await cards
        .first()
        .getByRole('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0)
    await expect.poll(() => sent('DidViewFmnOfferWall')).toBe(1)

    await page.getByRole('link', { name: 'See offer: Three picture books for $5' }).click()
    await expect(page).toHaveURL(new RegExp(`${OFFER}$`))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Three picture books for $5')
    await expect(page.getByRole('region', { name: 'Terms' }).getByRole('listitem')).toHaveCount(3)
    await expect(page.getByTestId('offer-leave-note')).toHaveText('You’ll leave Keepsake for littlereader.example')
    await expect.poll(() => sent('DidViewFmnOffer')).toBe(1)
  })

  test('the Go to link records the click and redirects to the partner over https', async ({ page }) => {
    await page.goto(OFFER)
    await waitForHydration(page)
    const go = page.getByRole('link', { name: 'Go to Little Reader Book Club' })
    await expect(go).toHaveAttribute('rel', 'noopener')
    await expect(go).toHaveAttribute('href', new RegExp(`^/v1/fmn/offers/little-reader-books/click\\?sid=${UUID}&from=%2Ffmn%2Foffers%2Flittle-reader-books$`))
    const href = (await go.getAttribute('href'))!
    const response = await page.request.get(href, { maxRedirects: 0 })
    expect(response.status()).toBe(302)
    expect(response.headers()['location']).toMatch(/^https:\/\//)
  })

  test('an unknown or malformed offer id shows the not-found state', async ({ page }) => {
    for (const id of ['no-such-offer', 'Not_An-Id!', 'x'.repeat(300)]) {
      const res = await page.goto(`/fmn/offers/${encodeURIComponent(id)}`)
      // An unknown offer shows the friendly page, answered 404.
      expect(res?.status()).toBe(404)
      await waitForHydration(page)
      const panel = page.getByTestId('offer-not-found')
      await expect(panel).toContainText('This offer isn’t available')
      await expect(page).toHaveTitle('Offer not found — Keepsake')
      await panel.getByRole('link', { name: 'See all partner offers' }).click()
      await expect(page).toHaveURL(/\/fmn\/offer-wall$/)
      await expect(page.getByTestId('offer-card')).toHaveCount(4)
    }
  })

  for (const width of [390, 1280]) {
    test(`the wall and an offer pass axe at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      for (const path of ['/fmn/offer-wall', OFFER, '/fmn/offers/no-such-offer']) {
        await page.goto(path)
        await waitForHydration(page)
        await expect(page.locator('h1').first()).toBeAttached()
        await expectNoAxeViolations(page)
      }
    })
  }
})
