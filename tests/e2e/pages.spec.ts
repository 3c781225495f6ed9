import { expect, test } from '@playwright/test'
import { expectNoSeriousAxeViolations, urlOf } from './support'

/** Every page this shell has, looked at on a phone and a desktop, and checked with axe. */
const pages = [
  '/photo-products',
  '/photo-products/buy-now?headerType=milestone-6-month',
  '/photo-products/tou',
  '/photo-products/photos',
  '/photo-products/addresses',
  '/loop',
  '/loop/modal',
  '/loop/modal/holidays',
  '/loop/modal/new-user',
  '/loop/mothers-day',
  '/loop/mothers-day-b',
  '/loop/fathers-day',
  '/loop/grandparents-day',
  '/loop/store/',
  '/referral',
  '/referral/refer/GRAN-7Q4X',
  '/referral/r/GRAN-7Q4X',
  '/referral/r0/GRAN-7Q4X',
  '/referral/redeem',
  '/referral/advocate/GRAN-7Q4X/redemptions/rdm_42',
  '/referral/advocate/GRAN-7Q4X/redemptions/rdm_42/past',
  '/fmn',
  '/fmn/offer-wall',
  '/fmn/offers/little-reader-books',
  '/egifts',
  '/utils',
  '/utils/session',
  '/utils/demo-sign-in',
  '/no-such-page',
  urlOf('maintenance', '/photo-products'),
  urlOf('override', '/photo-products'),
]

const shotName = (path: string) =>
  path
    .replace(/^https?:\/\/localhost:(\d+)/, (_, port: string) => `port${port}`)
    .replace(/[^a-z0-9]+/gi, '_')
    .replace(/^_|_$/g, '') || 'root'

/**
 * One test a page: it loads once and is looked at on a phone, then on a desktop (the same page resized, as a
 * shopper turning a tablet would see it), so 30 pages cost 30 loads, not 60.
 */
for (const path of pages) {
  test(`${path} renders cleanly at 390px and 1280px and passes axe`, async ({ page }) => {
    // Full-page screenshots of the long pages take seconds while four servers share two cores.
    test.slow()
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    await expect(page.locator('h1').first()).toBeVisible()
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, `no sideways scrolling at ${width}px`).toBeLessThanOrEqual(0)
      await expectNoSeriousAxeViolations(page)
      await page.screenshot({ path: `.screenshots/${width}/${shotName(path)}.png`, fullPage: true })
    }
  })
}

/**
 * Each area's landing paints from its HTML and stylesheet before any of the app's JavaScript is asked for
 * (decision 024), then hydrates: the scripts' requests start after the first contentful paint, and a link
 * the router owns then navigates without a page load. The page itself arrives compressed.
 */
test.describe('landings paint before their scripts load', () => {
  for (const path of ['/photo-products', '/loop', '/referral/r/GRAN-7Q4X', '/egifts', '/fmn']) {
    test(`${path} asks for its scripts after its first paint, then hydrates`, async ({ page, request }) => {
      await page.goto(path)
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
      const timings = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        scripts: (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => /\/assets\/.*\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => ({ name: new URL(entry.name).pathname, start: entry.startTime })),
      }))
      expect(timings.paint, 'the page painted').not.toBeNull()
      expect(timings.scripts.length, 'the app loaded its scripts').toBeGreaterThan(0)
      for (const script of timings.scripts) expect(script.start, `${script.name} was asked for after the first paint`).toBeGreaterThan(timings.paint!)
      // One module script element for the entry: TanStack's <Scripts> finds the loader's and adds no second.
      const entries = await page.evaluate(() => [...document.querySelectorAll('script[type="module"][src]')].map((s) => s.getAttribute('src')))
      expect(new Set(entries).size).toBe(entries.length)

      const html = await request.get(path, { headers: { 'accept-encoding': 'br' } })
      expect(html.headers()['content-encoding']).toBe('br')
      expect(await html.text()).not.toContain('rel="modulepreload"')
    })
  }

  test('a landing hydrates: the router moves between pages without a full load', async ({ page }) => {
    await page.goto('/photo-products')
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    await page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true))
    await page.getByRole('link', { name: /Design yours: Tree/ }).click()
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/\d+/)
    expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed)).toBe(true)
  })
})
