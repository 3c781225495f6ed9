import { expect, test } from '@playwright/test'
import { expectNoSeriousAxeViolations, urlOf } from './support'

/** Every page this shell has, looked at on a phone and a desktop, and checked with axe. */
const pages = [
  '/photo-products',
  '/photo-products/buy-now?headerType=milestone-6-month',
  '/photo-products/tou',
  '/photo-products/photos',
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

for (const width of [390, 1280]) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } })
    for (const path of pages) {
      test(`${path} renders cleanly and passes axe`, async ({ page }) => {
        // Full-page screenshots of the long pages take seconds while four servers share two cores.
        test.slow()
        await page.goto(path)
        await page.waitForLoadState('networkidle')
        await expect(page.locator('h1').first()).toBeVisible()
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0)
        await expectNoSeriousAxeViolations(page)
        await page.screenshot({ path: `.screenshots/${width}/${shotName(path)}.png`, fullPage: true })
      })
    }
  })
}
