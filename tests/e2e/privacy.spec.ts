import { type BrowserContext, type Page } from '@playwright/test'
import {
  answerPostHog,
  clientNavigate,
  designStarAndAddToCart,
  expectNoAxeViolations,
  sentAnalytics,
  sentEvent,
  shootBothWidths,
  urlOf,
  waitForHydration,
} from './support'
import { expect, test } from './fixtures'

/**
 * The privacy page and the analytics question. Every other spec starts with `ks_consent=granted`
 * (playwright.config.ts); these start as a first-time shopper who has not answered.
 */
test.use({ storageState: { cookies: [], origins: [] } })

/** The store flushes analytics 1.5 s after an event; waiting past that shows nothing was left to send. */
const PAST_THE_FLUSH_MS = 3_000

const bar = (page: Page) => page.getByRole('region', { name: 'Analytics choice' })
const consentCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === 'ks_consent')

test.describe('the analytics question', () => {
  test.describe.configure({ timeout: 180_000 })

  test('asks on a phone, sends nothing while undecided, and sends what it held once the shopper allows it', async ({ page, context, login }) => {
    const sent = sentAnalytics(page)

    await test.step('the bar shows at 390 px, under the header, with 44 px targets, and passes axe', async () => {
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto('/photo-products')
      await waitForHydration(page)
      await expect(bar(page)).toBeVisible()
      // In the page's flow right under the header: on screen when the page opens, and it covers nothing.
      const box = (await bar(page).boundingBox())!
      const header = (await page.getByRole('banner').boundingBox())!
      expect(box.y).toBeGreaterThanOrEqual(header.y + header.height - 1)
      expect(box.y + box.height).toBeLessThanOrEqual(844)
      expect(await bar(page).evaluate((el) => getComputedStyle(el).position)).toBe('static')
      for (const name of ['Allow analytics', 'No thanks', 'Not now']) {
        const target = (await bar(page).getByRole('button', { name }).boundingBox())!
        expect(target.height, name).toBeGreaterThanOrEqual(44)
        expect(target.width, name).toBeGreaterThanOrEqual(44)
      }
      await expect(bar(page).getByRole('link', { name: 'How we use your data' })).toHaveAttribute('href', '/privacy')
      await expectNoAxeViolations(page)
    })

    await test.step('designing, previewing and adding to the cart sends nothing while undecided', async () => {
      await page.setViewportSize({ width: 1280, height: 900 })
      await login()
      await designStarAndAddToCart(page)
      await page.waitForTimeout(PAST_THE_FLUSH_MS)
      expect(sent).toEqual([])
      expect(await consentCookie(context)).toBeUndefined()
      await expect(page.getByRole('region', { name: 'Order summary' }).getByRole('link', { name: 'How we use your data' })).toHaveAttribute('href', '/privacy')
    })

    await test.step('"Allow analytics" sends the events held on this page and hides the bar', async () => {
      await bar(page).getByRole('button', { name: 'Allow analytics' }).click()
      await expect(bar(page)).toHaveCount(0)
      const added = await sentEvent(sent, 'DidAddProductToCart')
      expect(added.properties).toEqual(expect.objectContaining({ variantId: 72965 }))
      expect(added.path).toBe('/photo-products/ornaments/72965')
      await sentEvent(sent, 'DidSelectPodTemplate')
      await sentEvent(sent, 'PodPreviewSuccess')
      expect(sent.filter((e) => e.event === 'DidViewPage').map((e) => e.path)).toEqual(
        expect.arrayContaining(['/photo-products/ornaments/72965', '/photo-products/cart']),
      )
      const cookie = await consentCookie(context)
      expect(cookie).toEqual(expect.objectContaining({ value: 'granted', path: '/', sameSite: 'Lax', httpOnly: false }))
      // Remembered for a year (give or take the test's own minutes).
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000)
    })

    await test.step('after a reload the server renders no bar, and events flow at once', async () => {
      const before = sent.length
      const response = await page.reload()
      expect(await response!.text()).not.toContain('Analytics choice')
      await waitForHydration(page)
      await expect(bar(page)).toHaveCount(0)
      await expect.poll(() => sent.slice(before).some((e) => e.event === 'DidViewPage' && e.path === '/photo-products/cart'), { timeout: 15_000 }).toBe(true)
    })

    await test.step('the checkout page links to it beside Pay', async () => {
      await page.getByRole('region', { name: 'Order summary' }).getByRole('button', { name: 'Checkout' }).click()
      await expect(page).toHaveURL(/\/utils\/checkout\//)
      await waitForHydration(page)
      await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeVisible()
      await expect(page.getByRole('main').getByRole('link', { name: 'How we use your data' })).toHaveAttribute('href', '/privacy')
    })
  })

  test('"No thanks" sends nothing, across a navigation and a reload, and the bar stays away', async ({ page, context }) => {
    const sent = sentAnalytics(page)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/egifts')
    await waitForHydration(page)
    await bar(page).getByRole('button', { name: 'No thanks' }).click()
    await expect(bar(page)).toHaveCount(0)
    expect((await consentCookie(context))?.value).toBe('denied')

    await clientNavigate(page, '/fmn/offer-wall')
    await expect(page).toHaveURL(/\/fmn\/offer-wall$/)
    const response = await page.reload()
    expect(await response!.text()).not.toContain('Analytics choice')
    await waitForHydration(page)
    await expect(bar(page)).toHaveCount(0)
    await page.goto('/egifts')
    await waitForHydration(page)
    await page.waitForTimeout(PAST_THE_FLUSH_MS)
    expect(sent).toEqual([])
  })

  test('"Not now" hides the bar for this tab only: it asks again in a new one, and nothing is sent meanwhile', async ({ page, context }) => {
    const sent = sentAnalytics(page)
    await page.goto('/egifts')
    await waitForHydration(page)
    await bar(page).getByRole('button', { name: 'Not now' }).click()
    await expect(bar(page)).toHaveCount(0)
    expect(await consentCookie(context)).toBeUndefined()
    await page.reload()
    await waitForHydration(page)
    await expect(bar(page)).toHaveCount(0)
    await page.waitForTimeout(PAST_THE_FLUSH_MS)
    expect(sent).toEqual([])

    const nextVisit = await context.newPage()
    await nextVisit.goto('/egifts')
    await waitForHydration(nextVisit)
    await expect(bar(nextVisit)).toBeVisible()
  })

  // Issue 32: answering with the keyboard leaves focus in the page's content, not on <body>.
  for (const name of ['Allow analytics', 'No thanks', 'Not now']) {
    test(`"${name}" answered with the keyboard moves focus to the page's content`, async ({ page }) => {
      await page.goto('/photo-products')
      await waitForHydration(page)
      await bar(page).getByRole('button', { name }).focus()
      await page.keyboard.press('Enter')
      await expect(bar(page)).toHaveCount(0)
      await expect(page.locator('main#main')).toBeFocused()
      // The next Tab goes on into the page, not back to the top of it.
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true)
    })
  }

  test('inside the album app’s sheets there is no bar, and nothing is recorded', async ({ page }) => {
    const sent = sentAnalytics(page)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/loop/modal/holidays')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(bar(page)).toHaveCount(0)
    await page.waitForTimeout(PAST_THE_FLUSH_MS)
    expect(sent).toEqual([])
  })

  test('with PostHog configured, nothing reaches PostHog until the shopper allows it', async ({ page }) => {
    const posthogCalls = await answerPostHog(page)
    await page.goto(urlOf('demoOff', '/photo-products?uuid=6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'))
    await waitForHydration(page)
    await expect(bar(page)).toContainText('clicks and scrolling')
    await page.waitForTimeout(PAST_THE_FLUSH_MS)
    expect(posthogCalls).toEqual([])
    await bar(page).getByRole('button', { name: 'Allow analytics' }).click()
    await expect.poll(() => posthogCalls.length, { timeout: 20_000 }).toBeGreaterThan(0)
  })
})

test.describe('the privacy page', () => {
  test('is linked from the footer, says what is kept and for how long, and its choice is the bar’s', async ({ page, context }) => {
    const sent = sentAnalytics(page)
    await page.goto('/photo-products')
    await waitForHydration(page)
    await expect(bar(page)).toBeVisible()
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).click()
    await expect(page).toHaveURL(/\/privacy$/)
    await expect(page).toHaveTitle('Privacy — Keepsake')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy')
    // The page asks the same question in full: the bar steps aside here.
    await expect(bar(page)).toHaveCount(0)

    for (const heading of ['How the shop is used', 'Session replay', 'Your choice', 'Your photos', 'Orders and e-mail', 'Cookies']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
    }
    await expect(page.getByRole('main')).toContainText('deleted after 30 days')
    // This server has no PostHog: events stay with Keepsake and nothing is replayed.
    await expect(page.getByRole('main')).toContainText('Keepsake stores these records itself')
    await expect(page.getByRole('main')).toContainText('This store does not record sessions')
    const cookies = page.getByRole('region', { name: 'Cookies' }).getByRole('listitem')
    await expect(cookies).toHaveCount(3)
    await expect(cookies.filter({ hasText: 'keepsake_session' })).toContainText('30 days')
    await expect(cookies.filter({ hasText: 'keepsake_referral' })).toContainText('30 days')
    await expect(cookies.filter({ hasText: 'ks_consent' })).toContainText('1 year')

    const choice = page.getByRole('region', { name: 'Your choice' })
    await expect(choice.getByRole('link', { name: 'help@keepsake.example' })).toHaveAttribute('href', 'mailto:help@keepsake.example')
    await expect(choice.getByRole('status')).toContainText('haven’t chosen')
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'privacy', 'sign-in')

    await test.step('allowing here sends what this tab held (both pages, reached without a reload)', async () => {
      await choice.getByRole('button', { name: 'Allow analytics' }).click()
      await expect(choice.getByRole('button', { name: 'Allow analytics' })).toHaveAttribute('aria-pressed', 'true')
      await expect(choice.getByRole('status')).toContainText('Analytics are on')
      expect((await consentCookie(context))?.value).toBe('granted')
      await expect.poll(() => sent.filter((e) => e.event === 'DidViewPage').map((e) => e.path), { timeout: 15_000 }).toEqual(['/photo-products', '/privacy'])
    })

    await test.step('turning it off here stops sending at once', async () => {
      await choice.getByRole('button', { name: 'Turn analytics off' }).click()
      await expect(choice.getByRole('status')).toContainText('Analytics are off')
      expect((await consentCookie(context))?.value).toBe('denied')
      const before = sent.length
      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of use' }).click()
      await expect(page).toHaveURL(/\/photo-products\/tou$/)
      await expect(bar(page)).toHaveCount(0)
      await page.waitForTimeout(PAST_THE_FLUSH_MS)
      expect(sent.slice(before)).toEqual([])
    })
  })

  test('with PostHog configured it says records go to PostHog and what replay captures', async ({ page }) => {
    await page.goto(urlOf('demoOff', '/privacy'))
    await waitForHydration(page)
    await expect(page.getByRole('main')).toContainText('These records go to PostHog')
    await expect(page.getByRole('main')).toContainText('clicks, scrolling and moving between pages')
    await expect(page.getByRole('main')).toContainText('masked')
  })
})
