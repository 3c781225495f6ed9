import { expect, test } from '@playwright/test'
import { clientNavigate, expectNoAxeViolations, responseBodies, urlOf, waitForHydration } from './support'

test.describe('error pages (SPEC.md §8)', () => {
  test('an unknown path shows 404 / Page Not Found with a retry button', async ({ page }) => {
    const res = await page.goto('/no/such/page')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404')
    await expect(page.getByText('Page Not Found')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible()
  })

  test('an unknown path inside an area is a 404 too', async ({ page }) => {
    const res = await page.goto('/loop/not-a-campaign')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404')
  })

  test('an unknown /v1 path answers JSON 404, even to a browser asking for HTML', async ({ request }) => {
    const res = await request.get('/v1/nothing-here', { headers: { accept: 'text/html' } })
    expect(res.status()).toBe(404)
    expect(res.headers()['content-type']).toMatch(/application\/json/)
    expect((await res.json()).error.code).toBe('not_found')
  })

  test('a failed load shows the error text, a message and a Retry button that recovers', async ({ page }) => {
    await page.goto('/photo-products')
    await waitForHydration(page)
    await page.route('**/_serverFn/**', (route) => route.abort('connectionrefused'))
    await clientNavigate(page, '/utils/demo-sign-in')
    await expect(page.getByText('Something went wrong while loading this page. Check your connection and try again.')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('')
    await page.unroute('**/_serverFn/**')
    await page.getByRole('button', { name: 'Retry' }).click()
    await expect(page.getByRole('heading', { name: 'Try Keepsake as a demo family' })).toBeVisible()
  })
})

test.describe('maintenance (SPEC.md §1)', () => {
  test('every page shows the maintenance screen with 503', async ({ page }) => {
    for (const path of ['/photo-products', '/loop', '/referral/r/ABC']) {
      const res = await page.goto(urlOf('maintenance', path))
      expect(res?.status()).toBe(503)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maintenance in progress')
      await expect(page.getByText(/undergoing maintenance/)).toBeVisible()
      await expect(page.getByText(/back soon/)).toBeVisible()
      await expect(page.getByText(/Thank you for your understanding/)).toBeVisible()
      await expect(page.locator('main svg')).toBeVisible()
    }
  })

  // These pages' loaders meet the API's 503 with a page of ours, not a red "redacted" toast covering the screen.
  test('nothing a page loads during maintenance surfaces as a toast or a console error', async ({ page }) => {
    test.setTimeout(120_000)
    const errors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    page.on('pageerror', (error) => errors.push(error.message))
    for (const path of ['/loop/store/', '/photo-products/ornaments/72965', '/utils/demo-sign-in', '/egifts', '/photo-products/cart', '/referral']) {
      const res = await page.goto(urlOf('maintenance', path))
      expect(res?.status()).toBe(503)
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Maintenance in progress')
      // Give a failed load time to raise its toast (sonner is fetched on the first one).
      await page.waitForTimeout(1500)
      await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
      await expect(page.locator('body')).not.toContainText('redacted')
    }
    expect(errors.filter((text) => !/status of 503/.test(text))).toEqual([])
  })

  test('/v1 answers 503 JSON', async ({ request }) => {
    const res = await request.get(urlOf('maintenance', '/v1/photo-products/photo-ornament'))
    expect(res.status()).toBe(503)
    expect((await res.json()).error.code).toBe('maintenance')
  })
})

test.describe('root override window (SPEC.md §1)', () => {
  test('inside the window the alternate root app replaces the store', async ({ page }) => {
    await page.goto(urlOf('override', '/photo-products'))
    await expect(page.getByTestId('holiday-root')).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Store' })).toHaveCount(0)
  })

  test('outside the window the store is shown', async ({ page }) => {
    await page.goto('/photo-products')
    await expect(page.getByTestId('holiday-root')).toHaveCount(0)
    await expect(page.getByRole('navigation', { name: 'Store' })).toBeVisible()
  })
})

test.describe('what the browser receives', () => {
  test('pages carry security headers', async ({ request }) => {
    const res = await request.get('/photo-products')
    expect(res.headers()['x-content-type-options']).toBe('nosniff')
    expect(res.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(res.headers()['x-frame-options']).toBe('SAMEORIGIN')
  })

  // A URL that cannot be decoded gets our error page, not a bare text 400.
  test('a malformed URL gets the store’s page, answered 400, with its security headers', async ({ page, request }) => {
    for (const path of ['/%E0%A4%A', '/referral/r/%ZZ', '/photo-products/%ED%A0%80']) {
      const res = await request.get(path)
      expect(res.status(), path).toBe(400)
      expect(res.headers()['content-type']).toMatch(/text\/html/)
      expect(res.headers()['x-content-type-options']).toBe('nosniff')
      expect(res.headers()['x-frame-options']).toBe('SAMEORIGIN')
    }
    // Issue 32: a broken link is not called a missing page, in the server's HTML nor once the page has hydrated.
    const html = await (await request.get('/%E0%A4%A')).text()
    expect(html).toContain('This link is broken')
    expect(html).not.toContain('Page Not Found')
    const res = await page.goto('/%E0%A4%A')
    expect(res?.status()).toBe(400)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('400')
    await expect(page.getByText('This link is broken')).toBeVisible()
    await expect(page.getByText('Page Not Found')).toHaveCount(0)
    await expect(page.getByRole('banner')).toBeVisible()
    await expectNoAxeViolations(page)
    // A path no page claims is still the 404.
    expect((await page.goto('/no-such-page'))?.status()).toBe(404)
    await expect(page.getByText('Page Not Found')).toBeVisible()
  })

  // Issue 29, bug 7: under /v1 the answer is the API's JSON error, not the page.
  test('a malformed /v1 path is refused in the API error shape', async ({ request }) => {
    for (const path of ['/v1/%ZZ', '/v1/media/photos/%E0%A4%A/small.jpg', '/v1/growth/referral-codes/%ED%A0%80']) {
      const res = await request.get(path)
      expect(res.status(), path).toBe(400)
      expect(res.headers()['content-type'], path).toMatch(/^application\/json/)
      // Issue 43, item 9: with its request id, in the body and the header, like every other error.
      const requestId = res.headers()['x-request-id']
      expect(requestId, path).toMatch(/^[0-9a-f-]{36}$/)
      expect(await res.json(), path).toEqual({ error: { code: 'validation_failed', message: 'The path has a malformed percent escape', requestId } })
    }
    // The client's own X-Request-Id is the one it gets back, on the API's refusal and on the broken-link page.
    const sent = 'malformed-path-trace-0001'
    const api = await request.get('/v1/%ZZ', { headers: { 'x-request-id': sent } })
    expect(api.headers()['x-request-id']).toBe(sent)
    expect((await api.json()).error.requestId).toBe(sent)
    expect((await request.get('/%E0%A4%A', { headers: { 'x-request-id': sent } })).headers()['x-request-id']).toBe(sent)
  })

  test('static files carry nosniff; pages over http send no HSTS', async ({ request, page }) => {
    await page.goto('/photo-products')
    const script = await page.locator('script[src^="/assets/"]').first().getAttribute('src')
    for (const path of ['/favicon.svg', script!]) {
      const res = await request.get(path)
      expect(res.status()).toBe(200)
      expect(res.headers()['x-content-type-options'], path).toBe('nosniff')
    }
    expect((await request.get('/photo-products')).headers()['strict-transport-security']).toBeUndefined()
    expect((await request.get('/v1/openapi.json')).headers()['strict-transport-security']).toBeUndefined()
  })

  test('a server function refuses a malformed or oversized call with 400/413 in the API error shape', async ({ page, request }) => {
    // A real server function id, as the page calls it.
    await page.goto('/photo-products')
    const called = page.waitForRequest((r) => r.url().includes('/_serverFn/'))
    await page.goto('/utils/session')
    const url = new URL((await called).url())
    const fn = url.origin + url.pathname
    const cases: [string, Promise<Awaited<ReturnType<typeof request.get>>>, number][] = [
      ['a body of {', request.post(fn, { headers: { 'content-type': 'application/json', origin: url.origin }, data: Buffer.from('{') }), 400],
      ['a GET payload that is not JSON', request.get(`${fn}?payload=%zz`), 400],
      [
        'a 2 MB body',
        request.post(fn, { headers: { 'content-type': 'application/json', origin: url.origin }, data: Buffer.from(`"${'x'.repeat(2 * 1024 * 1024)}"`) }),
        413,
      ],
    ]
    for (const [name, pending, status] of cases) {
      const res = await pending
      expect(res.status(), name).toBe(status)
      expect(((await res.json()) as { error: { code: string } }).error.code, name).toBe(status === 413 ? 'payload_too_large' : 'validation_failed')
    }
  })

  test('no server secret reaches the page or its scripts', async ({ page, request }) => {
    const { serverSecrets } = await import('../../playwright.config')
    const received = responseBodies(page)
    await page.goto('/photo-products')
    await waitForHydration(page)
    const fetched = await Promise.all(
      ['/loop', '/utils/demo-sign-in'].map(async (path) => ({ kind: 'document', url: path, body: await (await request.get(path)).text() })),
    )
    const bodies = [...(await received.all()), ...fetched]
    // The page itself, the app's scripts, and the two pages fetched: what the secrets would be in.
    expect(bodies.filter((b) => b.kind === 'document' && b.body.length > 0).map((b) => new URL(b.url, 'http://localhost').pathname)).toEqual(
      expect.arrayContaining(['/photo-products', '/loop', '/utils/demo-sign-in']),
    )
    expect(bodies.filter((b) => b.kind === 'script' && b.body.length > 0).length).toBeGreaterThan(0)
    for (const secret of Object.values(serverSecrets)) {
      expect(bodies.filter((b) => b.body.includes(secret)).map((b) => b.url)).toEqual([])
    }
    expect(bodies.some((b) => b.body.includes('sessionReplayProjectId'))).toBe(true)
  })
})
