import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../app.config'
import { statusSummaryOf } from '../../app/features/utils/engine-status'

/** Every production engine configured, each with a secret, a host or a URL that must stay on the server. */
const secrets = {
  DATABASE_URL: 'postgres://keepsake:db-password-7f3a@db.internal.example:5432/keepsake',
  SESSION_SECRET: 'session-secret-that-must-never-leak-0123456789',
  S3_BUCKET: 'keepsake-private-bucket',
  S3_ENDPOINT: 'https://s3.storage.internal.example',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLEACCESSKEY',
  S3_SECRET_ACCESS_KEY: 's3-secret-access-key-9d8c',
  S3_PUBLIC_URL: 'https://photos.cdn.internal.example',
  PRINTIFY_API_TOKEN: 'printify-token-5b2e',
  PRINTIFY_SHOP_ID: 'shop-884422',
  STRIPE_SECRET_KEY: 'sk_live_stripe-secret-1a2b3c',
  STRIPE_WEBHOOK_SECRET: 'whsec_webhook-secret-4d5e',
  POSTHOG_KEY: 'phc_posthog-project-key-6f7g',
  POSTHOG_HOST: 'https://posthog.internal.example',
  REDIS_URL: 'redis://:redis-password-8h9i@redis.internal.example:6379',
  SMTP_URL: 'smtps://mailer:smtp-password-0j1k@smtp.internal.example:465',
  API_BASE_URL: 'https://api.internal.example',
  PUBLIC_URL: 'https://shop.internal.example',
}

describe('engine status (/utils/status)', () => {
  it('names every production engine when all are configured', () => {
    const summary = statusSummaryOf(loadConfig(secrets), '1.2.3')
    expect(summary.engines.map((e) => [e.id, e.engine, e.mode])).toEqual([
      ['database', 'PostgreSQL', 'production'],
      ['storage', 'S3', 'production'],
      ['print', 'Printify', 'production'],
      ['payments', 'Stripe', 'production'],
      ['analytics', 'PostHog', 'production'],
      ['rate-limits', 'Redis', 'production'],
      ['email', 'SMTP', 'production'],
    ])
    // A database URL turns demo mode off unless it is asked for.
    expect(summary.switches).toEqual([expect.objectContaining({ id: 'demo', on: false }), expect.objectContaining({ id: 'maintenance', on: false })])
    expect(summary.version).toBe('1.2.3')
  })

  it('a configuration full of secrets yields a summary containing none of them, nor any host or URL', () => {
    const text = JSON.stringify(statusSummaryOf(loadConfig(secrets), '1.2.3'))
    for (const [name, value] of Object.entries(secrets)) {
      expect(text, name).not.toContain(value)
    }
    for (const fragment of ['password', 'internal.example', 'AKIA', 'sk_live', 'whsec', 'phc_', '://', 'shop-884422']) {
      expect(text).not.toContain(fragment)
    }
  })

  it('names the embedded engines when nothing is configured', () => {
    const summary = statusSummaryOf(loadConfig({ MAINTENANCE_MODE: 'true' }), null)
    expect(summary.engines.map((e) => [e.id, e.engine, e.mode])).toEqual([
      ['database', 'PGlite', 'embedded'],
      ['storage', 'Local disk', 'embedded'],
      ['print', 'Local', 'embedded'],
      ['payments', 'Local checkout', 'embedded'],
      ['analytics', 'Off', 'embedded'],
      ['rate-limits', 'In-process', 'embedded'],
      ['email', 'Outbox only', 'embedded'],
    ])
    expect(summary.switches.map((s) => [s.id, s.on])).toEqual([
      ['demo', true],
      ['maintenance', true],
    ])
  })
})
