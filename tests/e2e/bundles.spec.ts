import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page, type Route } from '@playwright/test'
import { waitForHydration } from './support'

const STORE = '/loop/store'

/** Every request the page makes for the bundles, held until the test answers it. */
function holdBundleRequests(page: Page) {
  const held: Route[] = []
  let count = 0
  const ready = page.route('**/v1/loop/bundles', (route) => {
    count += 1
    held.push(route)
  })
  return {
    ready,
    count: () => count,
    /** No new request, after giving one time to reach the network. */
    async expectStill(n: number) {
      await page.waitForTimeout(400)
      expect(count).toBe(n)
    },
    /** Answers the oldest held request with a 503 and waits until the page has it. */
    async failNext() {
      await expect.poll(() => held.length).toBeGreaterThan(0)
      const route = held.shift()!
      const finished = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/v1/loop/bundles'))
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"internal","message":"Bundles are down"}}' })
      await finished
      // The page reads the answer and starts its backoff timer on the paused clock.
      await page.waitForTimeout(250)
    },
  }
}

test.describe('bundles on the store page', () => {
  test('shows the whole set with its bundle price, the regular price struck through and the saving', async ({ page }) => {
    await page.goto(STORE)
    await waitForHydration(page)
    const shelf = page.getByRole('region', { name: 'Bundles' })
    await expect(shelf).toHaveAttribute('data-state', 'ready')
    await expect(shelf.getByRole('heading', { level: 2, name: 'Bundles' })).toBeVisible()
    const card = shelf.getByTestId('bundle-card').filter({ hasText: 'The whole set' })
    await expect(card).toHaveCount(1)
    await expect(card.getByTestId('bundle-price')).toHaveText('$69.97')
    await expect(card.getByTestId('bundle-regular-price')).toHaveText('$77.97')
    await expect(card.getByTestId('bundle-savings')).toHaveText('Save $8.00')
    await card.getByRole('link', { name: 'The whole set: start with the Tree' }).click()
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72963$/)
  })

  test('after three failed tries, 2 s then 4 s apart, the shelf rests quietly and asks no more', async ({ page }) => {
    const requests = holdBundleRequests(page)
    await requests.ready
    await page.clock.install()
    await page.goto(STORE)
    // Not waitForHydration: the held request keeps the network busy. The first try comes once the page hydrates.
    await expect.poll(() => requests.count(), { timeout: 20_000 }).toBe(1)
    await expect(page.getByTestId('bundles-loading')).toBeVisible()
    await requests.expectStill(1)
    // Time stands still from here on: only runFor moves it.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000)

    await requests.failNext()
    await page.clock.runFor(1999)
    await requests.expectStill(1)
    await page.clock.runFor(1)
    await expect.poll(() => requests.count()).toBe(2)

    await requests.failNext()
    await page.clock.runFor(3999)
    await requests.expectStill(2)
    await page.clock.runFor(1)
    await expect.poll(() => requests.count()).toBe(3)

    await requests.failNext()
    await page.clock.runFor(100)
    const resting = page.getByTestId('bundles-empty')
    await expect(resting).toContainText('Bundles are taking a break — ornaments are still available.')
    await expect(resting.getByRole('link', { name: 'Shop ornaments' })).toHaveAttribute('href', '/photo-products')
    await expect(page.getByTestId('bundle-card')).toHaveCount(0)
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)

    await page.clock.runFor(60_000)
    await requests.expectStill(3)
  })

  for (const width of [390, 1280]) {
    test(`the shelf fits and passes axe at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.goto(STORE)
      await waitForHydration(page)
      const shelf = page.getByRole('region', { name: 'Bundles' })
      await expect(shelf).toHaveAttribute('data-state', 'ready')
      await shelf.scrollIntoViewIfNeeded()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0)
      const link = shelf.getByRole('link', { name: 'The whole set: start with the Tree' })
      expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44)
      // The shelf's own markup, every impact (the page around it is pages.spec.ts's business).
      const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="bundle-shelf-heading"]').analyze()
      expect(axe.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
      await shelf.screenshot({ path: `.screenshots/${width}/loop-store-bundles.png` })
    })
  }
})
