import { type Page } from '@playwright/test'
import { answerPostHog, designStarAndAddToCart, STAR, urlOf, waitForHydration } from './support'
import { expect, test } from './fixtures'

/**
 * Pages carry a nonce-based Content-Security-Policy, and nothing the store does breaks it:
 * a `securitypolicyviolation` listener installed before any script runs fails the test on any report.
 */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __csp: string[] }).__csp = seen
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
    )
  })
  const console: string[] = []
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) console.push(m.text())
  })
  return async () => [...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)), ...console]
}

function policyOf(header: string | undefined) {
  expect(header, 'the page sends a Content-Security-Policy').toBeTruthy()
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  )
}

test.describe('Content-Security-Policy', () => {
  test.describe.configure({ timeout: 240_000 })

  test('every page sends a policy with a fresh nonce, and every script in the HTML carries it', async ({ request }) => {
    const nonces = new Set<string>()
    for (const path of [
      '/',
      '/photo-products',
      STAR,
      '/photo-products/cart',
      '/egifts',
      '/loop/modal',
      '/referral',
      '/fmn/offer-wall',
      '/utils',
      '/no-such-page',
    ]) {
      const res = await request.get(urlOf('main', path))
      const policy = policyOf(res.headers()['content-security-policy'])
      const nonce = policy['script-src']!.find((s: string) => s.startsWith("'nonce-"))!.slice(7, -1)
      expect(policy['script-src']).toEqual(expect.arrayContaining(["'strict-dynamic'"]))
      expect(policy['script-src']).not.toContain("'unsafe-inline'")
      expect(policy['script-src']).not.toContain("'unsafe-eval'")
      expect(policy['object-src']).toEqual(["'none'"])
      expect(policy['frame-ancestors']).toEqual(["'self'"])
      nonces.add(nonce)
      const html = await res.text()
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts) expect(tag, `${path}: ${tag}`).toContain(`nonce="${nonce}"`)
    }
    expect(nonces.size).toBe(10)
    // Not a page: the API's JSON needs no policy of this kind.
    expect((await request.get(urlOf('main', '/v1/openapi.json'))).headers()['content-security-policy']).toBeUndefined()
  })

  test('shopping under the policy reports no violation: album, WebGL designer, preview, cart, checkout, e-gifts, campaigns', async ({ page, login }) => {
    const violations = await watchCsp(page)
    await login()
    await page.goto('/photo-products/photos')
    await waitForHydration(page)
    await designStarAndAddToCart(page)
    await page.getByRole('button', { name: 'Checkout' }).click()
    await expect(page).toHaveURL(/\/utils\/checkout\//)
    await waitForHydration(page)
    for (const path of [
      '/egifts',
      '/egifts/redeem',
      '/loop/modal/holidays',
      '/loop/store/',
      '/referral',
      '/fmn/offer-wall',
      '/utils/outbox',
      '/photo-products/orders',
      '/photo-products/designs',
      '/utils/render-check',
    ]) {
      await page.goto(path)
      await waitForHydration(page)
    }
    expect(await violations()).toEqual([])
  })

  test('PostHog, when configured, runs under the policy', async ({ page }) => {
    const violations = await watchCsp(page)
    const posthogCalls = await answerPostHog(page)
    await page.goto(urlOf('demoOff', '/photo-products?uuid=6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'))
    await waitForHydration(page)
    await expect.poll(() => posthogCalls.length, { timeout: 20_000 }).toBeGreaterThan(0)
    expect(await violations()).toEqual([])
  })
})
