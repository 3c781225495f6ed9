import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../app.config'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { contentSecurityPolicy, setSecurityHeaders } from '../../app/csp.server'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
import { createTestApi } from '../support/test-api'

const directives = (policy: string) =>
  Object.fromEntries(
    policy
      .split('; ')
      .map((d) => d.split(' '))
      .map(([name, ...values]) => [name!, values]),
  )

/** Decision 021: the policy names only our origin and the hosts configuration uses, never a wildcard. */
describe('the pages’ Content-Security-Policy', () => {
  it('on the embedded defaults: our origin only, scripts by nonce, no eval, no inline script', () => {
    const policy = directives(contentSecurityPolicy('abc123', loadConfig({ DATA_DIR: '/tmp/keepsake-csp' })))
    expect(policy['script-src']).toEqual(["'nonce-abc123'", "'strict-dynamic'", "'self'"])
    expect(policy['connect-src']).toEqual(["'self'", 'blob:', 'data:'])
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:'])
    expect(policy['object-src']).toEqual(["'none'"])
    expect(
      Object.values(policy)
        .flat()
        .some((v) => v === '*' || v === "'unsafe-eval'"),
    ).toBe(false)
  })

  it('names the API, the bucket, the photo CDN and PostHog when configuration uses them, and nothing else', () => {
    const config = loadConfig({
      DATA_DIR: '/tmp/keepsake-csp',
      API_BASE_URL: 'https://api.keepsake.example',
      S3_BUCKET: 'photos',
      S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com',
      S3_PUBLIC_URL: 'https://cdn.keepsake.example/photos',
      POSTHOG_KEY: 'phc_x',
      POSTHOG_HOST: 'https://eu.i.posthog.com',
    })
    const policy = directives(contentSecurityPolicy('n', config))
    expect(policy['connect-src']).toEqual([
      "'self'",
      'blob:',
      'data:',
      'https://api.keepsake.example',
      'https://cdn.keepsake.example',
      'https://s3.eu-west-1.amazonaws.com',
      'https://eu.i.posthog.com',
      'https://eu-assets.i.posthog.com',
    ])
    expect(policy['img-src']).toEqual(expect.arrayContaining(['https://cdn.keepsake.example', 'https://api.keepsake.example']))
    expect(policy['script-src']).toEqual(["'nonce-n'", "'strict-dynamic'", "'self'"])
  })
})

/** Issue 42, item 12: what start.ts's middleware does to every answer of the store (setSecurityHeaders). */
describe('the store’s security headers', () => {
  const config = loadConfig({ DATA_DIR: '/tmp/keepsake-csp', PUBLIC_URL: 'https://shop.keepsake.example' })

  it('give a page the page policy of its nonce', () => {
    const page = new Response('<!doctype html>', { headers: { 'content-type': 'text/html; charset=utf-8' } })
    setSecurityHeaders(page.headers, 'n0nce', config)
    expect(page.headers.get('content-security-policy')).toBe(contentSecurityPolicy('n0nce', config))
    expect(page.headers.get('strict-transport-security')).toMatch(/max-age=/)
  })

  it('leave the packing slip its own stricter policy', { timeout: 120_000 }, async () => {
    const t = await createTestApi()
    try {
      const cookie = await t.signIn(0)
      const preview = await recordPreview(t, t.users[0].id, 'tree')
      expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', cookie, json: cartItemFor(preview) })).status).toBe(201)
      const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
        method: 'POST',
        cookie,
        json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
      })
      expect(paid.status, JSON.stringify(paid.body)).toBe(200)
      const orderId = paid.body.orderId as string
      // The order's own parcel has the order's id.
      const slip = await t.api.fetch(
        new Request(`http://localhost:3000/v1/photo-products-orders/${orderId}/parcels/${orderId}/packing-slip`, { headers: { cookie } }),
      )
      expect(slip.status).toBe(200)
      const own = slip.headers.get('content-security-policy')
      expect(directives(own!)['default-src']).toEqual(["'none'"])
      setSecurityHeaders(slip.headers, 'n0nce', config)
      expect(slip.headers.get('content-security-policy')).toBe(own)
      expect(slip.headers.get('x-content-type-options')).toBe('nosniff')
    } finally {
      await t.close()
    }
  })
})
