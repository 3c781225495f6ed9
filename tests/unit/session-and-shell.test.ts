import { describe, expect, it } from 'vitest'
import { ConfigError, defaultRootOverrides, loadConfig, publicConfigOf } from '../../app.config'
import { activeRootOverride } from '../../app/lib/root-override'
import { readSessionQuery, startSession } from '../../app/lib/session-context'

const uuid = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b'

describe('session context (SPEC.md §1, §3)', () => {
  it('reads market, uuid and data from the query string', () => {
    expect(readSessionQuery(`?market=us&uuid=${uuid}&data=abc`)).toEqual({ market: 'US', uuid, data: 'abc' })
  })

  it('drops each invalid value on its own', () => {
    expect(readSessionQuery('?market=America&uuid=123&data=ok')).toEqual({ data: 'ok' })
    expect(readSessionQuery(`?data=${'x'.repeat(3000)}`)).toEqual({})
  })

  it('adds a random sid and keeps it for the tab', () => {
    const first = startSession('?market=GB', null, () => '11111111-1111-4111-8111-111111111111')
    expect(first).toEqual({ market: 'GB', uuid: null, data: null, sid: '11111111-1111-4111-8111-111111111111' })
    const again = startSession('', JSON.stringify(first), () => 'never')
    expect(again.sid).toBe(first.sid)
    expect(again.market).toBe('GB')
  })

  it('replaces a corrupt stored session', () => {
    const s = startSession('', '{not json', () => '22222222-2222-4222-8222-222222222222')
    expect(s.sid).toBe('22222222-2222-4222-8222-222222222222')
  })
})

describe('root override window (SPEC.md §1)', () => {
  it('defaults to 2024-02-13 16:00 to 19:00 UTC', () => {
    expect(loadConfig({}).rootOverrides).toEqual(defaultRootOverrides)
    expect(defaultRootOverrides).toEqual([{ from: '2024-02-13T16:00:00Z', to: '2024-02-13T19:00:00Z', app: 'holiday' }])
  })

  it('is active from its start up to, not including, its end', () => {
    const at = (iso: string) => activeRootOverride(defaultRootOverrides, new Date(iso))
    expect(at('2024-02-13T15:59:59Z')).toBeNull()
    expect(at('2024-02-13T16:00:00Z')?.app).toBe('holiday')
    expect(at('2024-02-13T18:59:59Z')?.app).toBe('holiday')
    expect(at('2024-02-13T19:00:00Z')).toBeNull()
    expect(at('2026-11-22T12:00:00Z')).toBeNull()
  })
})

describe('configuration (app.config.ts)', () => {
  it('has working defaults on a fresh machine', () => {
    const c = loadConfig({})
    expect(c.port).toBe(3000)
    expect(c.productSlug).toBe('keepsake')
    expect(c.previewLogs).toBe(false)
    expect(c.maintenance).toBe(false)
    expect(c.apiBaseUrl).toBe('http://localhost:3000')
    expect(c.celebrateApiBaseUrl).toBe(c.apiBaseUrl)
    expect(c.databaseUrl).toBeNull()
    expect(c.demoMode).toBe(true)
    expect(c.storage.kind).toBe('local')
    expect(c.shutdownGraceSeconds).toBe(25)
    expect(c.smtpTimeoutMs).toBe(10_000)
    expect(c.redisCommandTimeoutMs).toBe(500)
    expect(c.idempotentWriteDeadlineSeconds).toBe(30)
  })

  it('gives S3 its deadlines: 2 s to connect and 10 s a request unless set (issue 43)', () => {
    expect(loadConfig({ S3_BUCKET: 'photos' }).storage).toMatchObject({ kind: 's3', connectTimeoutMs: 2000, requestTimeoutMs: 10_000 })
    expect(loadConfig({ S3_BUCKET: 'photos', S3_CONNECT_TIMEOUT_MS: '500', S3_REQUEST_TIMEOUT_MS: '3000' }).storage).toMatchObject({
      connectTimeoutMs: 500,
      requestTimeoutMs: 3000,
    })
  })

  it('turns demo mode off by default with a real database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/keepsake' }).demoMode).toBe(false)
  })

  it.each([
    ['PORT', 'eighty', /PORT: expected a port number/],
    ['PORT', '70000', /PORT: expected a port between 1 and 65535/],
    ['MAINTENANCE_MODE', 'maybe', /MAINTENANCE_MODE: expected one of true, false/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: expected a postgres:\/\/ connection URL/],
    ['PUBLIC_URL', 'localhost', /PUBLIC_URL: expected an absolute URL/],
    ['PRODUCT_SLUG', 'Key Sake', /PRODUCT_SLUG: expected a lower-case slug/],
    ['ROOT_OVERRIDES', '[{"from":"tomorrow"}]', /ROOT_OVERRIDES/],
    ['ROOT_OVERRIDES', 'not json', /ROOT_OVERRIDES: expected a JSON list/],
    ['STRIPE_SECRET_KEY', 'pk_live_123', /STRIPE_SECRET_KEY: expected a key starting sk_test_/],
    ['SHUTDOWN_GRACE_SECONDS', 'soon', /SHUTDOWN_GRACE_SECONDS: expected a number of seconds/],
    ['SHUTDOWN_GRACE_SECONDS', '-1', /SHUTDOWN_GRACE_SECONDS: expected at least 0 seconds/],
    ['SHUTDOWN_GRACE_SECONDS', '7200', /SHUTDOWN_GRACE_SECONDS: expected at most an hour/],
    ['SMTP_TIMEOUT_MS', 'soon', /SMTP_TIMEOUT_MS: expected a number of milliseconds/],
    ['SMTP_TIMEOUT_MS', '2.5', /SMTP_TIMEOUT_MS: expected a whole number of milliseconds/],
    ['SMTP_TIMEOUT_MS', '10', /SMTP_TIMEOUT_MS: expected at least 100 milliseconds/],
    ['SMTP_TIMEOUT_MS', '3600000', /SMTP_TIMEOUT_MS: expected at most 10 minutes/],
    ['S3_CONNECT_TIMEOUT_MS', '0', /S3_CONNECT_TIMEOUT_MS: expected at least 1 millisecond/],
    ['S3_REQUEST_TIMEOUT_MS', 'soon', /S3_REQUEST_TIMEOUT_MS: expected a number of milliseconds/],
    ['REDIS_COMMAND_TIMEOUT_MS', '1.5', /REDIS_COMMAND_TIMEOUT_MS: expected a whole number of milliseconds/],
    ['IDEMPOTENT_WRITE_DEADLINE_SECONDS', '0', /IDEMPOTENT_WRITE_DEADLINE_SECONDS: expected at least 0.1 seconds/],
  ])('stops start-up when %s is %s, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })

  describe('test cards with a real print provider (issue 42, item 5)', () => {
    const printify = { PRINTIFY_API_TOKEN: 'printify-token', PRINTIFY_SHOP_ID: '12345' }

    it('refuses to start with Printify and no Stripe key, in one line naming both variables', () => {
      for (const env of [printify, { ...printify, NODE_ENV: 'production' }]) {
        expect(() => loadConfig(env)).toThrow(ConfigError)
        const problems = (() => {
          try {
            loadConfig(env)
          } catch (error) {
            return (error as ConfigError).problems
          }
          return []
        })()
        expect(problems).toHaveLength(1)
        expect(problems[0]).toMatch(/PRINTIFY_API_TOKEN/)
        expect(problems[0]).toMatch(/ALLOW_TEST_CARDS_WITH_REAL_PROVIDER=true/)
        expect(problems[0]).not.toMatch(/\n/)
      }
    })

    it('starts with the flag, with a Stripe key, or with the local print provider', () => {
      expect(loadConfig({ ...printify, ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'true' }).printify).toMatchObject({ shopId: '12345' })
      expect(loadConfig({ ...printify, STRIPE_SECRET_KEY: 'sk_test_abc' }).stripe).not.toBeNull()
      expect(loadConfig({}).printify).toBeNull()
      expect(loadConfig({ NODE_ENV: 'production' }).printify).toBeNull()
    })

    it('refuses the flag set to anything but a yes or no', () => {
      expect(() => loadConfig({ ...printify, ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'please' })).toThrow(
        /ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: expected one of true/,
      )
      expect(() => loadConfig({ ...printify, ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'false' })).toThrow(ConfigError)
    })
  })

  it('shows the browser only the public subset, never secrets', () => {
    const c = loadConfig({ STRIPE_SECRET_KEY: 'sk_test_secret', DATABASE_URL: 'postgres://u:pw@db/k', POSTHOG_KEY: 'phc_public' })
    const exposed = JSON.stringify(publicConfigOf(c))
    expect(exposed).not.toContain('sk_test_secret')
    expect(exposed).not.toContain('pw@db')
    expect(publicConfigOf(c).sessionReplayProjectId).toBe('phc_public')
  })
})

describe('the next root-override edge', () => {
  const windows = [
    { from: '2026-12-24T00:00:00Z', to: '2026-12-26T00:00:00Z', app: 'holiday' },
    { from: '2026-12-31T00:00:00Z', to: '2027-01-01T12:00:00Z', app: 'holiday' },
  ]
  const hour = 60 * 60 * 1000
  it('is the next start before a window, the end inside one, and null after the last', async () => {
    const { msUntilNextRootOverrideEdge } = await import('../../app/lib/root-override')
    expect(msUntilNextRootOverrideEdge(windows, new Date('2026-12-23T23:00:00Z'))).toBe(hour)
    expect(msUntilNextRootOverrideEdge(windows, new Date('2026-12-24T00:00:00Z'))).toBe(48 * hour)
    expect(msUntilNextRootOverrideEdge(windows, new Date('2026-12-27T00:00:00Z'))).toBe(96 * hour)
    expect(msUntilNextRootOverrideEdge(windows, new Date('2027-01-01T12:00:00Z'))).toBeNull()
    expect(msUntilNextRootOverrideEdge([], new Date())).toBeNull()
  })
})
