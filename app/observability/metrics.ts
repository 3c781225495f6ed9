/**
 * Prometheus metrics of this process (decision 045), with prom-client. Per process: two instances are
 * two scrape targets. Served at GET /metrics behind `Authorization: Bearer $METRICS_TOKEN`
 * (no token set: 404; a wrong one: 401), by the request wrapper (request-log.ts).
 *
 * A leaf module that plain Node loads too (scripts/serve.ts): the registry and the metrics live on
 * globalThis, so the server bundle's copy and the script's copy count into the same series.
 */
import { timingSafeEqual } from 'node:crypto'
import client from 'prom-client'

type JobCount = { kind: string; status: string; n: number }

function createMetrics() {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry, prefix: 'keepsake_' })
  const state: { jobCounts: (() => Promise<JobCount[]>) | null } = { jobCounts: null }
  const metrics = {
    registry,
    state,
    requestDuration: new client.Histogram({
      name: 'keepsake_http_request_duration_seconds',
      help: 'Time to answer a request (to its response headers), by route pattern, method and status class',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    jobs: new client.Counter({
      name: 'keepsake_jobs_total',
      help: 'Job runs by kind and outcome (done, retry, failed = gave up, lost = its lease went to another worker)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    jobDuration: new client.Histogram({
      name: 'keepsake_job_duration_seconds',
      help: 'Time one job run took, by kind',
      labelNames: ['kind'] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    jobsInTable: new client.Gauge({
      name: 'keepsake_jobs',
      help: 'Jobs in the jobs table by kind and status (queued = the queue depth, running, failed = waiting for a person); read at scrape time, the same in every instance',
      labelNames: ['kind', 'status'] as const,
      registers: [registry],
      async collect() {
        this.reset()
        if (!state.jobCounts) return
        for (const { kind, status, n } of await state.jobCounts()) this.set({ kind, status }, n)
      },
    }),
    previewRender: new client.Histogram({
      name: 'keepsake_preview_render_duration_seconds',
      help: 'Time to render a preview (its mockups at display size), by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
      registers: [registry],
    }),
    printFileRender: new client.Histogram({
      name: 'keepsake_print_file_render_duration_seconds',
      help: "Time to render a design's print files (front and back at the print area's size; once per design, when it goes into a cart)",
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30],
      registers: [registry],
    }),
    providerRateLimited: new client.Counter({
      name: 'keepsake_print_provider_rate_limited_total',
      help: 'Answers 429 (rate limited) from the print provider, by call; each is waited out before the call is tried again',
      labelNames: ['call'] as const,
      registers: [registry],
    }),
    ordersStuckOnHold: new client.Counter({
      name: 'keepsake_print_orders_stuck_on_hold_total',
      help: 'Provider orders still on hold an hour after the store sent them to production (each is also logged as an error)',
      registers: [registry],
    }),
    payments: new client.Counter({
      name: 'keepsake_payments_total',
      help: 'Checkout sessions that ended, by payment provider and outcome (paid, failed, expired, declined)',
      labelNames: ['provider', 'outcome'] as const,
      registers: [registry],
    }),
    chargeMismatches: new client.Counter({
      name: 'keepsake_payment_charge_mismatches_total',
      help: 'Orders whose payment provider charged another amount than the order total (the order keeps both; issue 42, item 6), by provider',
      labelNames: ['provider'] as const,
      registers: [registry],
    }),
    emails: new client.Counter({
      name: 'keepsake_emails_total',
      help: 'E-mail deliveries by kind and outcome (sent; failed = one attempt failed, the job retries it)',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    }),
    webhookEvents: new client.Counter({
      name: 'keepsake_webhook_events_total',
      help: 'Webhook events received by provider, event type and outcome (applied, duplicate, ignored, refused)',
      labelNames: ['provider', 'type', 'outcome'] as const,
      registers: [registry],
    }),
  }
  return metrics
}

const KEY = Symbol.for('keepsake.observability.metrics')
type Metrics = ReturnType<typeof createMetrics>
export function metrics(): Metrics {
  const holder = globalThis as Record<symbol, unknown>
  return (holder[KEY] ??= createMetrics()) as Metrics
}

/** Start-up of a job worker: how the queue-depth gauge reads the jobs table at scrape time. */
export function setJobCountsSource(read: () => Promise<JobCount[]>) {
  metrics().state.jobCounts = read
}

/** One webhook event: provider (stripe, printify), its type as the provider names it, and what we did with it. */
export function countWebhookEvent(provider: string, type: string, outcome: 'applied' | 'duplicate' | 'ignored' | 'refused') {
  metrics().webhookEvents.inc({ provider, type: type.slice(0, 64) || 'unknown', outcome })
}

/** 2xx, 3xx, 4xx, 5xx: the status label's values stay few. */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`

function sameToken(given: string, expected: string) {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * GET /metrics: 404 when METRICS_TOKEN is not set (the endpoint does not exist), 401 without the right
 * bearer token, else the registry in Prometheus' text format.
 */
export async function metricsResponse(request: Request, token: string | undefined): Promise<Response> {
  const plain = { 'content-type': 'application/json', 'cache-control': 'no-store' }
  if (!token) return new Response(JSON.stringify({ error: { code: 'not_found', message: 'No such page' } }), { status: 404, headers: plain })
  const given = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim()
  if (!given || !sameToken(given, token)) {
    return new Response(JSON.stringify({ error: { code: 'unauthenticated', message: 'The metrics need Authorization: Bearer <METRICS_TOKEN>' } }), {
      status: 401,
      headers: { ...plain, 'www-authenticate': 'Bearer realm="metrics"' },
    })
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(JSON.stringify({ error: { code: 'method_not_allowed', message: 'Use GET' } }), {
      status: 405,
      headers: { ...plain, allow: 'GET, HEAD' },
    })
  }
  const registry = metrics().registry
  return new Response(request.method === 'HEAD' ? null : await registry.metrics(), {
    headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
  })
}
