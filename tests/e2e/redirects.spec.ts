import { expect, test } from '@playwright/test'
import { legacyRedirects } from '../../app/lib/redirects'
import { clientNavigate, urlOf, waitForHydration } from './support'

const sample = { advocateReferralCode: 'GRAN-7Q4X', redemptionId: 'rdm_42' } as Record<string, string>

const cases = legacyRedirects.map((entry) => {
  const from = entry.from.replace(/:([A-Za-z]+)/g, (_, name: string) => sample[name]!).replace('/*', '/summer/sale')
  let to: string = entry.to.replace(/\$([A-Za-z]+)/g, (_, name: string) => sample[name]!)
  if ('search' in entry) to += `?headerType=${entry.search.headerType}`
  return { from, to }
})

/**
 * Every legacy path is checked over HTTP (status, Location, where following it lands), which needs no browser.
 * The browser checks — a full load, a client-side navigation that replaces history, the maintenance screen — run
 * for one path of each shape: all paths go through the same middleware and catch-all route
 * (resolveLegacyRedirect, whose every entry tests/unit/redirects.test.ts maps).
 */
const shapes = [
  '/fmn-offer-wall',
  '/loop-store/*',
  '/advocate/:advocateReferralCode/redemptions/:redemptionId/past',
  '/pod-lp-child-birthday',
  '/r/:advocateReferralCode',
]
const sampled = legacyRedirects.flatMap((entry, i) => (shapes.includes(entry.from) ? [cases[i]!] : []))
/** The sample invite code is unknown: its landing is the friendly invite page, answered 404. */
const landingStatus = (to: string) => (/^\/referral\/(r|r0|refer)\//.test(to) ? 404 : 200)

test.describe('legacy redirects (SPEC.md §2)', () => {
  test('every legacy path answers 302 to its new place, and the new place answers', async ({ request }) => {
    expect(sampled).toHaveLength(shapes.length)
    for (const { from, to } of cases) {
      const res = await request.get(from, { maxRedirects: 0 })
      expect(res.status(), from).toBe(302)
      const location = new URL(res.headers()['location']!, 'http://localhost')
      expect(location.pathname + location.search, from).toBe(to)
      expect((await request.get(from)).status(), `${from} → ${to}`).toBe(landingStatus(to))
    }
  })

  for (const { from, to } of sampled) {
    test(`full load of ${from} lands on ${to}`, async ({ page }) => {
      const landed = await page.goto(from)
      expect(landed?.status()).toBe(landingStatus(to))
      await expect(page).toHaveURL((url) => url.pathname + url.search === to)
      await expect(page.locator('h1').first()).toBeVisible()
    })

    test(`client navigation to ${from} replaces history with ${to}`, async ({ page }) => {
      await page.goto('/photo-products')
      await waitForHydration(page)
      const before = await page.evaluate(() => history.length)
      await clientNavigate(page, from)
      await expect(page).toHaveURL((url) => url.pathname + url.search === to)
      await expect(page.locator('h1').first()).toBeVisible()
      // One entry for the move, none for the legacy path: Back returns to where the shopper was.
      expect(await page.evaluate(() => history.length)).toBe(before + 1)
      await page.goBack()
      await expect(page).toHaveURL(/\/photo-products$/)
    })
  }

  test('the query string of a campaign link travels with the redirect', async ({ request }) => {
    const res = await request.get('/pod-lp-child-birthday?market=GB&utm_campaign=xmas', { maxRedirects: 0 })
    expect(res.headers()['location']).toMatch(/\/photo-products\/buy-now\?market=GB&utm_campaign=xmas&headerType=child-birthday$/)
  })

  test('/ goes to the photo products', async ({ request }) => {
    const res = await request.get('/', { maxRedirects: 0 })
    expect(res.status()).toBe(302)
    expect(res.headers()['location']).toMatch(/\/photo-products$/)
  })
})

/** During maintenance `/` answers with a page of ours, not a 503 with a Location and no body (the browser's own error page). */
test.describe('redirects during maintenance keep their status and land on the maintenance screen', () => {
  const all = [{ from: '/', to: '/photo-products' }, ...cases]
  test('every legacy path still answers 302 to its new place, which answers 503', async ({ request }) => {
    for (const { from, to } of all) {
      const res = await request.get(urlOf('maintenance', from), { maxRedirects: 0 })
      expect(res.status(), from).toBe(302)
      const location = new URL(res.headers()['location']!, urlOf('maintenance'))
      expect(location.pathname + location.search, from).toBe(to)
      expect((await request.get(urlOf('maintenance', from))).status(), `${from} → ${to}`).toBe(503)
    }
  })

  for (const { from } of [{ from: '/' }, ...sampled]) {
    test(`maintenance: ${from} lands on the maintenance screen`, async ({ page }) => {
      const landed = await page.goto(urlOf('maintenance', from))
      expect(landed?.status()).toBe(503)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.getByText(/undergoing maintenance/)).toBeVisible()
    })
  }
})
