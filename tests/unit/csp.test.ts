import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../app.config'
import { contentSecurityPolicy } from '../../app/csp.server'

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
