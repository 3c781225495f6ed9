/**
 * Logs and metrics of a real server process (decision 045): `npm run start:api` with JSON logs and a
 * METRICS_TOKEN. A purchase made with the store's X-Request-Id is followed through its request line, the
 * jobs it enqueued (their rows and their lines) and the e-mail they sent; then /metrics is scraped and
 * its counters have moved. A client that leaves mid-request is one info line, not a stack trace.
 */
import net from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { cartItemFor, recordPreview, testAddress } from '../support/cart'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'
import { createTestApi, TEST_ORIGIN } from '../support/test-api'

const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
const TOKEN = 'metrics-token-for-the-test-0123'
const common = { PUBLIC_URL: TEST_ORIGIN, SESSION_SECRET: 'observability-test-session-secret-0123456789' }

const stores: Store[] = []
afterEach(killServers)
afterAll(async () => {
  for (const store of stores) await store.drop()
})

async function withData<T>(store: Store, use: (t: Awaited<ReturnType<typeof createTestApi>>) => Promise<T>) {
  const t = await createTestApi({ ...common, ...store.env }, { database: { databaseUrl: store.databaseUrl, dataDir: store.dataDir } })
  t.setNow(new Date())
  try {
    return await use(t)
  } finally {
    await t.close()
  }
}

/** The process's JSON log lines (its start-up lines are plain text and skipped). */
const jsonLines = (output: string): Record<string, any>[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>)

/** One sample of the scrape: the value of `name{labels…}` whose labels include all of `labels`. */
function sample(scrape: string, name: string, labels: Record<string, string>): number {
  let total = 0
  for (const line of scrape.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue
    const labelText = line.slice(name.length + 1, line.lastIndexOf('}'))
    if (Object.entries(labels).every(([k, v]) => labelText.includes(`${k}="${v}"`))) total += Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return total
}

/** A POST whose body never finishes: the client sends half of it and resets the connection. */
function abortedPost(url: string, path: string, requestId: string) {
  const { hostname, port } = new URL(url)
  return new Promise<void>((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nX-Request-Id: ${requestId}\r\nContent-Length: 1000\r\n\r\n{"email":`,
      )
      // The server has the headers and waits for the rest of the body; the client goes.
      setTimeout(() => socket.destroy(), 200)
    })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve())
  })
}

describe(`logs and metrics of a server process (${engine})`, () => {
  it('one request id from the store through the API, its jobs and its e-mail; /metrics moves after a purchase', { timeout: 180_000 }, async () => {
    const store = await freshStore(engine)
    stores.push(store)
    const { cookie, sessionId } = await withData(store, async (t) => {
      const cookie = await t.signIn(0)
      const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(await recordPreview(t, t.users[0].id)), cookie })
      expect(added.status).toBe(201)
      const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(session.status).toBe(201)
      return { cookie, sessionId: session.body.id as string }
    })

    const server = await startServer({ ...common, ...store.env, DEMO_MODE: 'false', METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info', LOG_FORMAT: 'json' })
    const scrape = async (authorization?: string) => {
      const response = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} })
      return { status: response.status, text: await response.text() }
    }
    expect((await scrape()).status).toBe(401)
    expect((await scrape(`Bearer ${TOKEN}x`)).status).toBe(401)
    const before = (await scrape(`Bearer ${TOKEN}`)).text

    // The store's request id, as app/lib/api-call.server.ts and app/api/forward.ts send it.
    const requestId = `store-${sessionId.slice(0, 8)}`
    const paid = await server.request(`/v1/checkout/local/${sessionId}/pay`, {
      method: 'POST',
      json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
      cookie,
      headers: { 'x-request-id': requestId },
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)

    // The order confirmation goes out from a job, under the purchase's request id.
    const mine = () => jsonLines(server.output()).filter((line) => line.reqId === requestId)
    // The job logs its outcome after the e-mail's line (and counts it then): wait for both, not the first.
    const jobDone = (line: Record<string, any>) => String(line.msg).startsWith('[jobs] send-email ') && line.outcome === 'done'
    await server.until('the confirmation e-mail line and its job done', () => {
      const seen = mine()
      return seen.some((line) => line.msg === '[mail] order-confirmation e-mail sent') && seen.some(jobDone)
    })
    const lines = mine()
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({
      layer: 'api',
      method: 'POST',
      route: '/v1/checkout/local/:id/pay',
      status: 200,
      accountId: expect.any(String),
    })
    expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1)
    expect(lines.some(jobDone)).toBe(true)
    expect(lines.find((line) => line.msg === '[mail] order-confirmation e-mail sent')).toMatchObject({
      kind: 'order-confirmation',
      emailId: expect.any(String),
    })

    const after = (await scrape(`Bearer ${TOKEN}`)).text
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels)
    expect(moved('keepsake_http_request_duration_seconds_count', { route: '/v1/checkout/local/:id/pay', method: 'POST', status: '2xx' })).toBe(1)
    expect(moved('keepsake_payments_total', { provider: 'local', outcome: 'paid' })).toBe(1)
    expect(moved('keepsake_emails_total', { kind: 'order-confirmation', outcome: 'sent' })).toBe(1)
    expect(moved('keepsake_jobs_total', { kind: 'send-email', outcome: 'done' })).toBeGreaterThanOrEqual(1)
    expect(after).toContain('# TYPE keepsake_jobs gauge')
    expect(after).toContain('# TYPE keepsake_preview_render_duration_seconds histogram')

    // A client that leaves mid-request: one info line under its id, and no stack trace anywhere.
    await abortedPost(server.url, '/v1/growth/sign-in-links', 'client-that-left')
    await server.until('the line of the client that left', () => jsonLines(server.output()).some((line) => line.reqId === 'client-that-left'))
    expect(jsonLines(server.output()).filter((line) => line.reqId === 'client-that-left')).toEqual([
      expect.objectContaining({ level: 30, msg: 'client left mid-request', aborted: true, status: 499, route: '/v1/growth/sign-in-links' }),
    ])
    expect(server.output()).not.toContain('Error: aborted')
    if (process.env.OBSERVABILITY_SAMPLE_DIR) {
      const fs = await import('node:fs')
      fs.writeFileSync(`${process.env.OBSERVABILITY_SAMPLE_DIR}/api-output.txt`, server.output())
      fs.writeFileSync(`${process.env.OBSERVABILITY_SAMPLE_DIR}/scrape.txt`, after)
    }
    await server.kill()

    // The jobs the purchase enqueued name its request in their rows.
    const jobRows = await withData(store, (t) =>
      t.db
        .execute(sql`select kind from jobs where payload ->> 'requestId' = ${requestId} order by id`)
        .then((r) => ((r as { rows?: unknown[] }).rows ?? r) as { kind: string }[]),
    )
    expect(jobRows.map((row) => row.kind)).toEqual(expect.arrayContaining(['send-email']))
  })
})
