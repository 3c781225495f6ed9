import { expect, test } from '@playwright/test'
import { buyNowHeaderTypes } from '../../app/lib/redirects'
import { buyNowHeaders } from '../../app/features/photo-products/buy-now-headers'
import { clientNavigate, urlOf, waitForHydration } from './support'

test.describe('session context (SPEC.md §1, §3)', () => {
  const uuid = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'

  test('reads market, uuid and data from the query string and adds a sid', async ({ page }) => {
    const identify = page.waitForRequest((r) => r.url().includes('/_serverFn/') && (r.postData() ?? '').includes('DidIdentifySession'))
    await page.goto(`/photo-products?market=gb&uuid=${uuid}&data=spring-mailer`)
    await waitForHydration(page)
    // With a uuid present the session is identified with analytics.
    expect((await identify).postData()).toContain(uuid)
    const pageView = page.waitForRequest((r) => {
      const body = r.postData() ?? ''
      return r.url().includes('/_serverFn/') && body.includes('DidViewPage') && body.includes('/utils/session')
    })
    await clientNavigate(page, '/utils/session')
    // Every page view is tracked with its path, and carries the session's market.
    expect((await pageView).postData()).toContain('GB')
    const panel = page.getByTestId('session-context')
    await expect(panel.locator('[data-field="Market"]')).toHaveText('GB')
    await expect(panel.locator('[data-field="User (uuid)"]')).toHaveText(uuid)
    await expect(panel.locator('[data-field="Campaign data"]')).toHaveText('spring-mailer')
    await expect(panel.locator('[data-field="Session id (sid)"]')).toHaveText(/^[0-9a-f-]{36}$/)
  })

  test('drops invalid values and keeps the sid for the tab', async ({ page }) => {
    await page.goto('/photo-products?market=United%20Kingdom&uuid=not-a-uuid&data=ok')
    await waitForHydration(page)
    await clientNavigate(page, '/utils/session')
    const panel = page.getByTestId('session-context')
    await expect(panel.locator('[data-field="Market"]')).toHaveText('—')
    await expect(panel.locator('[data-field="User (uuid)"]')).toHaveText('—')
    await expect(panel.locator('[data-field="Campaign data"]')).toHaveText('ok')
    const sid = await panel.locator('[data-field="Session id (sid)"]').textContent()
    await page.reload()
    await expect(page.getByTestId('session-context').locator('[data-field="Session id (sid)"]')).toHaveText(sid!)
  })
})

test.describe('areas load on demand', () => {
  test('each area’s code arrives only when the shopper goes there, with a spinner meanwhile', async ({ page }) => {
    const scripts: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
    })
    await page.goto('/photo-products')
    await waitForHydration(page)
    for (const area of ['loop', 'referral', 'egifts', 'fmn', 'utils']) {
      expect(scripts.some((s) => s.startsWith(`/assets/${area}-`))).toBe(false)
    }
    // The e-gifts chunk is held until the pending spinner shows, however long that takes, and then let through.
    let letThrough!: () => void
    const spinnerShown = new Promise<void>((resolve) => (letThrough = resolve))
    await page.route('**/assets/egifts-*.js', async (route) => {
      await spinnerShown
      await route.continue()
    })
    await page.getByRole('navigation', { name: 'Store' }).getByRole('link', { name: 'E-gifts' }).click()
    await expect(page.getByTestId('page-spinner')).toBeVisible()
    letThrough()
    await expect(page.getByRole('heading', { name: 'Give the gift of their own photos' })).toBeVisible()
    expect(scripts.some((s) => s.startsWith('/assets/egifts-'))).toBe(true)

    for (const [link, heading, chunk] of [
      ['Offers', 'Moments worth celebrating', 'loop'],
      ['Refer a friend', 'Share Keepsake, and you both get a gift', 'referral'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Store' }).getByRole('link', { name: link }).click()
      await expect(page.getByRole('heading', { name: heading })).toBeVisible()
      expect(scripts.some((s) => s.startsWith(`/assets/${chunk}-`))).toBe(true)
    }
  })
})

test.describe('photo products', () => {
  test('lists the three ornaments with prices from the API', async ({ page }) => {
    await page.goto('/photo-products')
    const cards = page.getByTestId('ornament-card')
    await expect(cards).toHaveCount(3)
    await expect(cards.nth(0)).toContainText('Tree Photo Ornament')
    await expect(cards.nth(0)).toContainText('$24.99')
    await expect(cards.nth(1)).toContainText('Star Photo Ornament')
    await expect(cards.nth(2)).toContainText('Stocking Photo Ornament')
    await expect(cards.nth(2)).toContainText('$27.99')
  })

  test('the terms of use name the support e-mail', async ({ page }) => {
    await page.goto('/photo-products/tou')
    await expect(page.getByRole('main').getByRole('link', { name: 'help@keepsake.example' })).toHaveAttribute('href', 'mailto:help@keepsake.example')
  })

  for (const headerType of buyNowHeaderTypes) {
    test(`buy-now shows the ${headerType} header`, async ({ page }) => {
      await page.goto(`/photo-products/buy-now?headerType=${headerType}`)
      await expect(page.getByTestId('buy-now-header')).toHaveAttribute('data-header-type', headerType)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(buyNowHeaders[headerType].title)
    })
  }

  test('buy-now falls back to the default header for an unknown headerType', async ({ page }) => {
    const res = await page.goto('/photo-products/buy-now?headerType=bar-mitzvah')
    expect(res?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(buyNowHeaders.default.title)
  })
})

test.describe('demo sign-in', () => {
  test('signs in as a demo family and out again', async ({ page }) => {
    await page.goto('/utils/demo-sign-in')
    await waitForHydration(page)
    await expect(page.getByTestId('current-user')).toHaveText('You are not signed in.')
    await page.getByRole('button', { name: 'Sign in as Maya Rivera' }).click()
    await expect(page.getByTestId('current-user')).toHaveText('Signed in as Maya Rivera')
    const cookies = await page.context().cookies()
    const session = cookies.find((c) => c.name === 'keepsake_session')
    expect(session?.httpOnly).toBe(true)
    expect(session?.sameSite).toBe('Lax')
    await page.reload()
    await waitForHydration(page)
    await expect(page.getByTestId('current-user')).toHaveText('Signed in as Maya Rivera')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByTestId('current-user')).toHaveText('You are not signed in.')
  })

  test('server functions refuse a cross-site call', async ({ page, request }) => {
    await page.goto('/utils/demo-sign-in')
    await waitForHydration(page)
    const call = page.waitForRequest((r) => r.url().includes('/_serverFn/') && r.method() === 'POST')
    await page.getByRole('button', { name: 'Sign in as Sam Okafor' }).click()
    const original = await call
    const forged = await request.fetch(original.url(), {
      method: 'POST',
      headers: { ...original.headers(), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      data: original.postData() ?? '',
    })
    expect(forged.status()).toBe(403)
  })

  test('is absent when demo mode is off', async ({ page }) => {
    const res = await page.goto(urlOf('demoOff', '/utils/demo-sign-in'))
    expect(res?.status()).toBe(404)
    await page.goto(urlOf('demoOff', '/utils'))
    await expect(page.getByRole('link', { name: /Demo sign-in/ })).toHaveCount(0)
  })
})

test.describe('errors from the API reach the shopper as toasts', () => {
  test('a refused sign-in shows the API’s message at the top of the page', async ({ page }) => {
    await page.goto('/utils/demo-sign-in')
    await waitForHydration(page)
    // Swap the account id in flight for one the API does not know.
    await page.route('**/_serverFn/**', async (route) => {
      const body = route.request().postData() ?? ''
      if (route.request().method() !== 'POST' || !body.includes('0b6e7d0e')) return route.continue()
      await route.continue({ postData: body.replace(/0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a0001/g, '11111111-1111-4111-8111-111111111111') })
    })
    await page.getByRole('button', { name: 'Sign in as Maya Rivera' }).click()
    const toast = page.locator('[data-sonner-toast]')
    await expect(toast).toContainText('Demo account not found')
    const box = await toast.boundingBox()
    expect(box!.y).toBeLessThan(120)
    await expect(page.getByTestId('current-user')).toHaveText('You are not signed in.')
  })
})
