import os from 'node:os'
import { LOG_FORMATS, LOG_LEVELS } from './app/observability/log.ts'
import path from 'node:path'
import { z } from 'zod'

/** Runtime configuration: the environment, validated once (ARCHITECTURE.md "Embedded by default"). */

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'expected one of true, false, 1, 0, yes, no, on, off',
    })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(value)))

const url = z.url({ error: 'expected an absolute URL such as https://example.com' })
const optionalUrl = url.optional()
const optionalText = z.string().trim().min(1).optional()

export const rootOverrideWindowSchema = z
  .object({
    from: z.iso.datetime({ error: 'expected an ISO date-time such as 2024-02-13T16:00:00Z' }),
    to: z.iso.datetime({ error: 'expected an ISO date-time such as 2024-02-13T19:00:00Z' }),
    app: z.string().default('holiday'),
  })
  .refine((w) => Date.parse(w.from) < Date.parse(w.to), { error: '"from" must be before "to"' })
export type RootOverrideWindow = z.infer<typeof rootOverrideWindowSchema>

/** SPEC.md §1: on 2024-02-13 16:00–19:00 UTC a different root application is shown. */
export const defaultRootOverrides: RootOverrideWindow[] = [{ from: '2024-02-13T16:00:00Z', to: '2024-02-13T19:00:00Z', app: 'holiday' }]

const rootOverrides = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined || raw.trim() === '') return defaultRootOverrides
    try {
      return JSON.parse(raw) as unknown
    } catch {
      ctx.addIssue({ code: 'custom', message: 'expected a JSON list of {"from","to"} windows' })
      return z.NEVER
    }
  })
  .pipe(z.array(rootOverrideWindowSchema, { error: 'expected a JSON list of {"from","to"} windows' }))

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'expected a port number' })
    .int({ error: 'expected a whole port number' })
    .min(1, { error: 'expected a port between 1 and 65535' })
    .max(65535, { error: 'expected a port between 1 and 65535' })
    .default(3000),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'expected a postgres:// connection URL' })
    .optional(),
  API_BASE_URL: optionalUrl,
  CELEBRATE_API_BASE_URL: optionalUrl,
  PRODUCT_SLUG: z
    .string()
    .regex(/^[a-z][a-z0-9-]{1,30}$/, { error: 'expected a lower-case slug such as keepsake' })
    .default('keepsake'),
  SUPPORT_EMAIL: z.email({ error: 'expected an e-mail address' }).default('help@keepsake.example'),
  POSTHOG_KEY: optionalText,
  POSTHOG_HOST: url.default('https://us.i.posthog.com'),
  PREVIEW_LOGS: bool(false),
  PREVIEW_WARM_UP: bool(true),
  MAINTENANCE_MODE: bool(false),
  ROOT_OVERRIDES: rootOverrides,
  DEMO_MODE: bool(true).optional(),
  SESSION_SECRET: z.string().min(32, { error: 'expected at least 32 characters' }).optional(),
  DEEP_LINK_CELEBRATE_AUTO_LOGIN: url.default('keepsake://celebrate/auto-login'),
  DEEP_LINK_STORE_TAB: url.default('keepsake://store'),
  DEEP_LINK_DOWNLOAD: url.default('https://keepsake.app.link/download'),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_PUBLIC_URL: optionalUrl,
  /** How long connecting to S3 may take, and how long one S3 request may (issue 43): past either, a 503. */
  S3_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(1, { error: 'expected at least 1 millisecond' })
    .max(600_000, { error: 'expected at most 10 minutes' })
    .default(2000),
  S3_REQUEST_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(1, { error: 'expected at least 1 millisecond' })
    .max(600_000, { error: 'expected at most 10 minutes' })
    .default(10_000),
  PRINTIFY_API_TOKEN: optionalText,
  PRINTIFY_SHOP_ID: optionalText,
  PRINTIFY_API_URL: url.default('https://api.printify.com'),
  /** The secret set on the shop's webhook subscriptions (npm run printify:webhooks); deliveries are signed with it. */
  PRINTIFY_WEBHOOK_SECRET: z.string().trim().min(16, { error: 'expected at least 16 characters' }).optional(),
  /** A Printify order not heard of for this long is looked up (the webhooks for it may never have come). */
  PRINTIFY_POLL_MINUTES: z.coerce
    .number({ error: 'expected a number of minutes' })
    .int({ error: 'expected a whole number of minutes' })
    .min(1, { error: 'expected at least 1 minute' })
    .max(24 * 60, { error: 'expected at most a day' })
    .default(30),
  /**
   * Printify's daily limit on product creation and mockups (its API guidelines name the limit, not its size): the client
   * refuses a product of its own past this many a day, rather than meet a 429 at a holiday peak (issue 50).
   */
  PRINTIFY_DAILY_PRODUCTS: z.coerce
    .number({ error: 'expected a number of products' })
    .int({ error: 'expected a whole number of products' })
    .min(1, { error: 'expected at least 1 product' })
    .max(100_000, { error: 'expected at most 100000 products' })
    .default(200),
  /** How long a print file URL given to the print provider stays good: it may fetch the file days after the order (issue 50). */
  PRINT_FILE_URL_DAYS: z.coerce
    .number({ error: 'expected a number of days' })
    .int({ error: 'expected a whole number of days' })
    .min(1, { error: 'expected at least 1 day' })
    .max(90, { error: 'expected at most 90 days' })
    .default(14),
  /** A paid order's parcels are sent to production this long after they reach the provider (0: at once; "Aftercare" sets its window). */
  ORDER_HOLD_MINUTES: z.coerce
    .number({ error: 'expected a number of minutes' })
    .int({ error: 'expected a whole number of minutes' })
    .min(0, { error: 'expected 0 minutes or more' })
    .max(7 * 24 * 60, { error: 'expected at most a week' })
    .default(0),
  /**
   * Without a Stripe key the checkout is the local one, which takes the test card 4242…; with Printify configured that
   * card would submit real orders at the merchant's cost. Start in that combination only when this says so (issue 42).
   */
  ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: bool(false),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^sk_(test|live)_/, { error: 'expected a key starting sk_test_ or sk_live_' })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, { error: 'expected a secret starting whsec_' })
    .optional(),
  PHOTO_PROXY_HOSTS: z
    .string()
    .optional()
    .transform((raw) =>
      (raw ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z0-9.-]+(:\d{1,5})?$/, { error: 'expected a comma-separated list of host names such as cdn.example.com' }))),
  DEMO_PHOTO_CACHE: z.string().min(1).optional(),
  LOCAL_FULFILMENT_STEP_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(1, { error: 'expected at least 1 second' })
    .max(7 * 24 * 3600, { error: 'expected at most a week' })
    .default(60),
  JOB_LEASE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(1, { error: 'expected at least 1 second' })
    .max(3600, { error: 'expected at most an hour' })
    .default(15),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0.1, { error: 'expected at least 0.1 seconds' })
    .max(3600, { error: 'expected at most an hour' })
    .default(30),
  /** How long opening a PostgreSQL connection may take (or waiting for a free one in the pool) before it counts as an outage (decision 073). */
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(100, { error: 'expected at least 100 ms' })
    .max(600_000, { error: 'expected at most 10 minutes' })
    .default(5000),
  /** The longest one PostgreSQL query may take: the server cancels it (statement_timeout) and the client stops waiting (decision 073). */
  DATABASE_QUERY_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(100, { error: 'expected at least 100 ms' })
    .max(3_600_000, { error: 'expected at most an hour' })
    .default(15_000),
  /** A write holding an Idempotency-Key still running after this is answered 503 and its key released (issue 43). */
  IDEMPOTENT_WRITE_DEADLINE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0.1, { error: 'expected at least 0.1 seconds' })
    .max(3600, { error: 'expected at most an hour' })
    .default(30),
  /** How long a stopping process lets requests and jobs in flight finish before it closes them anyway (decision 044). */
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ error: 'expected a number of seconds' })
    .min(0, { error: 'expected at least 0 seconds' })
    .max(3600, { error: 'expected at most an hour' })
    .default(25),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { error: 'expected a redis:// URL' })
    .optional(),
  /** How long a rate limit waits for Redis before it is taken as down (decision 075): fails open or closed by the limit. */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(1, { error: 'expected at least 1 millisecond' })
    .max(60_000, { error: 'expected at most a minute' })
    .default(500),
  /** How many proxies in front of the store append to X-Forwarded-For: false/0 ignores the header, true = 1. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = (raw ?? 'false').trim().toLowerCase()
      if (['true', 'yes', 'on'].includes(value)) return 1
      if (['false', 'no', 'off', ''].includes(value)) return 0
      if (/^\d{1,2}$/.test(value) && Number(value) <= 10) return Number(value)
      ctx.addIssue({ code: 'custom', message: 'expected true, false or the number of trusted proxy hops (0 to 10)' })
      return z.NEVER
    }),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { error: 'expected an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Keepsake <gifts@keepsake.example>'),
  /** The longest an SMTP server may take to connect, to greet, or to answer any step of a send (issue 43, decision 074). */
  SMTP_TIMEOUT_MS: z.coerce
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(100, { error: 'expected at least 100 milliseconds' })
    .max(600_000, { error: 'expected at most 10 minutes' })
    .default(10_000),
  /** Logs and metrics (decision 045): app/observability/log.ts reads these two; here they are checked at start-up. */
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).optional(),
  LOG_FORMAT: z.enum(LOG_FORMATS, { error: 'expected json or pretty' }).optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, { error: 'expected at least 16 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: 'expected printable characters without spaces' })
    .optional(),
})

export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  // An empty variable means "not set", as in most shells' `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(present)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment')
        const got = present[name]
        return `${name}: ${issue.message}${got === undefined ? '' : ` (got ${JSON.stringify(got)})`}`
      }),
    )
  }
  const e = parsed.data
  if (e.PRINTIFY_API_TOKEN && !e.STRIPE_SECRET_KEY && !e.ALLOW_TEST_CARDS_WITH_REAL_PROVIDER) {
    throw new ConfigError([
      'PRINTIFY_API_TOKEN is set but STRIPE_SECRET_KEY is not: the local checkout would pay real Printify orders with the test card 4242…; set STRIPE_SECRET_KEY, or ALLOW_TEST_CARDS_WITH_REAL_PROVIDER=true to accept that',
    ])
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '')
  const apiBaseUrl = (e.API_BASE_URL ?? publicUrl).replace(/\/$/, '')
  const dataDir = path.resolve(e.DATA_DIR)
  const demoMode = e.DEMO_MODE ?? e.DATABASE_URL === undefined

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    publicUrl,
    apiBaseUrl,
    celebrateApiBaseUrl: (e.CELEBRATE_API_BASE_URL ?? apiBaseUrl).replace(/\/$/, ''),
    productSlug: e.PRODUCT_SLUG,
    supportEmail: e.SUPPORT_EMAIL,
    sessionReplayProjectId: e.POSTHOG_KEY ?? null,
    posthogHost: e.POSTHOG_HOST,
    previewLogs: e.PREVIEW_LOGS,
    previewWarmUp: e.PREVIEW_WARM_UP,
    deepLinks: {
      celebrateAutoLogin: e.DEEP_LINK_CELEBRATE_AUTO_LOGIN,
      storeTab: e.DEEP_LINK_STORE_TAB,
      download: e.DEEP_LINK_DOWNLOAD,
    },
    maintenance: e.MAINTENANCE_MODE,
    rootOverrides: e.ROOT_OVERRIDES,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    /** PostgreSQL's deadlines: a connection, and one query (decision 073). PGlite is in the process and has none. */
    databaseTimeouts: { connectMs: e.DATABASE_CONNECT_TIMEOUT_MS, queryMs: e.DATABASE_QUERY_TIMEOUT_MS },
    demoMode,
    sessionSecret: e.SESSION_SECRET ?? null,
    secureCookies: publicUrl.startsWith('https://'),
    storage: e.S3_BUCKET
      ? {
          kind: 's3' as const,
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT ?? null,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID ?? null,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? null,
          publicUrl: e.S3_PUBLIC_URL ?? null,
          connectTimeoutMs: e.S3_CONNECT_TIMEOUT_MS,
          requestTimeoutMs: e.S3_REQUEST_TIMEOUT_MS,
        }
      : { kind: 'local' as const, root: path.join(dataDir, 'media') },
    printify:
      e.PRINTIFY_API_TOKEN && e.PRINTIFY_SHOP_ID
        ? {
            apiToken: e.PRINTIFY_API_TOKEN,
            shopId: e.PRINTIFY_SHOP_ID,
            baseUrl: e.PRINTIFY_API_URL,
            webhookSecret: e.PRINTIFY_WEBHOOK_SECRET ?? null,
            pollMinutes: e.PRINTIFY_POLL_MINUTES,
            dailyProducts: e.PRINTIFY_DAILY_PRODUCTS,
          }
        : null,
    stripe: e.STRIPE_SECRET_KEY ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null } : null,
    redisUrl: e.REDIS_URL ?? null,
    /** A rate limit's Redis hit past this is taken as Redis down (decision 075). */
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    /** E-mail goes through nodemailer to this SMTP server; without it, only to the outbox table (see app/api/services/mail.ts). */
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    /** An SMTP connection, greeting or silence longer than this fails the send, and its job tries again (decision 074). */
    smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    /** GET /metrics answers to `Authorization: Bearer` this; unset, there is no /metrics (decision 045). */
    metricsToken: e.METRICS_TOKEN ?? null,
    /** How many proxies in front of us append to X-Forwarded-For (0: the header is ignored, the socket names the client). */
    trustProxyHops: e.TRUST_PROXY,
    /** The local print provider moves an order one production step (submitted → in production → shipped) this often. */
    localFulfilmentStepSeconds: e.LOCAL_FULFILMENT_STEP_SECONDS,
    /** A parcel at the provider is sent to production this long after it was submitted (0: at once). */
    orderHoldMinutes: e.ORDER_HOLD_MINUTES,
    /** Print file URLs given to the provider are signed and last this many days. */
    printFileUrlDays: e.PRINT_FILE_URL_DAYS,
    /** A running job's lease; its worker renews it every third of this, so a dead worker's job is taken over within it. */
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    /** How long a client has to send its headers, and the longest a request body may pause; a slower one is answered 408 and cut off (decision 066). */
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    /** A write under an Idempotency-Key running longer than this is answered 503 and gives its key up, so a retry is processed. */
    idempotentWriteDeadlineSeconds: e.IDEMPOTENT_WRITE_DEADLINE_SECONDS,
    /** On SIGTERM/SIGINT, requests and jobs in flight get this long to finish before the process closes them and exits. */
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    /** CDN hosts the photo proxy may fetch from, besides our own media and bucket. */
    photoProxyHosts: e.PHOTO_PROXY_HOSTS,
    /** Rendered demo photos are kept here between starts (they are deterministic). */
    demoPhotoCacheDir: path.resolve(e.DEMO_PHOTO_CACHE ?? path.join(os.tmpdir(), 'keepsake-demo-photos')),
  }
}

export type AppConfig = ReturnType<typeof loadConfig>

/** The only part of the configuration the browser ever sees. */
export function publicConfigOf(config: AppConfig) {
  return {
    productSlug: config.productSlug,
    /**
     * Where the browser reaches the album API: always the store's own origin (empty, so same-origin paths and
     * its cookies). With API_BASE_URL elsewhere the store forwards its /v1 there (app/api/forward.ts).
     */
    apiBaseUrl: '',
    celebrateApiBaseUrl: config.celebrateApiBaseUrl === config.publicUrl || config.celebrateApiBaseUrl === config.apiBaseUrl ? '' : config.celebrateApiBaseUrl,
    supportEmail: config.supportEmail,
    sessionReplayProjectId: config.sessionReplayProjectId,
    posthogHost: config.posthogHost,
    previewLogs: config.previewLogs,
    deepLinks: config.deepLinks,
    demoMode: config.demoMode,
  }
}
export type PublicConfig = ReturnType<typeof publicConfigOf>

let current: AppConfig | undefined
/** The process-wide configuration, read from process.env on first use. */
export function getConfig(): AppConfig {
  current ??= loadConfig()
  return current
}
