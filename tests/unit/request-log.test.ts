/**
 * The request line and the logger's shape (decision 045): one line per request with its id, the id carried
 * through AsyncLocalStorage into nested calls and every line written meanwhile, a client that left as one
 * info line with no stack, an error once with its stack, and /metrics behind its token.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { currentRequestId, describeRequest, logger, onLogLine } from '../../app/observability/log'
import { metrics, metricsResponse } from '../../app/observability/metrics'
import { withRequestLog } from '../../app/observability/request-log'

let lines: Record<string, any>[]
let stop: () => void
let level: string
beforeEach(() => {
  lines = []
  stop = onLogLine((line) => lines.push(line), { silence: true })
  // Under NODE_ENV=test the default level is warn; the request line is info.
  level = logger().level
  logger().level = 'info'
})
afterEach(() => {
  stop()
  logger().level = level
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const requestLines = () => lines.filter((line) => line.msg === 'request' || line.msg === 'client left mid-request')

describe('the request line', () => {
  it('takes a sane X-Request-Id, answers it, and every line written inside the request carries it', async () => {
    let seen: string | undefined
    const response = await withRequestLog(new Request('http://store.test/egifts/abc', { headers: { 'x-request-id': 'store-req-1' } }), 'store', async () => {
      seen = currentRequestId()
      describeRequest({ route: '/egifts/$id', accountId: 'user-7' })
      // A later turn of the event loop is still inside the request.
      await new Promise((resolve) => setTimeout(resolve, 1))
      logger().warn('something worth a look')
      return new Response('ok', { status: 201 })
    })
    expect(seen).toBe('store-req-1')
    expect(response.headers.get('x-request-id')).toBe('store-req-1')
    expect(lines.find((line) => line.msg === 'something worth a look')?.reqId).toBe('store-req-1')
    expect(requestLines()).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: 'store-req-1',
        layer: 'store',
        method: 'GET',
        route: '/egifts/$id',
        path: '/egifts/abc',
        status: 201,
        accountId: 'user-7',
        ms: expect.any(Number),
      }),
    ])
    expect(currentRequestId()).toBeUndefined()
  })

  it('replaces an insane X-Request-Id (spaces, too long) with one of its own', async () => {
    for (const given of ['two words', 'x'.repeat(129), 'quote"d']) {
      const response = await withRequestLog(new Request('http://store.test/', { headers: { 'x-request-id': given } }), 'store', () => new Response('ok'))
      expect(response.headers.get('x-request-id')).toMatch(UUID)
    }
  })

  it('an in-process API call is a line of its own under the same id, and names the route of the store request', async () => {
    const inner: (string | undefined)[] = []
    await withRequestLog(new Request('http://store.test/v1/cart'), 'store', async () => {
      // The store's own layer again (app/server.ts under scripts/serve.ts): no second line.
      return withRequestLog(new Request('http://store.test/v1/cart'), 'store', () =>
        withRequestLog(new Request('http://store.test/v1/cart', { headers: { 'x-request-id': 'ignored-inside' } }), 'api', () => {
          inner.push(currentRequestId())
          describeRequest({ route: '/v1/photo-products-cart' })
          return new Response('{}')
        }),
      )
    })
    const [api, store] = requestLines()
    expect(requestLines()).toHaveLength(2)
    expect(api).toMatchObject({ layer: 'api', route: '/v1/photo-products-cart', reqId: store!.reqId })
    expect(store).toMatchObject({ layer: 'store', route: '/v1/photo-products-cart' })
    expect(inner).toEqual([store!.reqId])
  })

  it('a path nobody named gets a bounded route label, never the raw path', async () => {
    await withRequestLog(new Request('http://store.test/v1/orders/0b7c2d5e'), 'store', () => new Response(null, { status: 404 }))
    await withRequestLog(new Request('http://store.test/some/where/123'), 'store', () => new Response(null, { status: 404 }))
    expect(requestLines().map((line) => line.route)).toEqual(['/v1/*', 'unmatched'])
  })

  it('a client that left mid-request is one info line with no stack', async () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' })
    const response = await withRequestLog(new Request('http://store.test/v1/uploads', { method: 'POST' }), 'store', async () => {
      throw aborted
    })
    expect(response.status).toBe(499)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 30, msg: 'client left mid-request', aborted: true, status: 499 })
    expect(JSON.stringify(lines[0])).not.toContain('stack')
  })

  it('an ECONNRESET from a call we made is an error, not a client that left', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    const response = await withRequestLog(new Request('http://store.test/x'), 'store', async () => {
      throw reset
    })
    expect(response.status).toBe(500)
    expect(lines.filter((line) => line.level === 50)).toHaveLength(1)
  })

  it('an error is logged once, with its stack and the request id; the request line counts the 500', async () => {
    const response = await withRequestLog(new Request('http://store.test/boom', { headers: { 'x-request-id': 'req-boom' } }), 'store', async () => {
      throw new Error('the compositor fell over')
    })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'internal', requestId: 'req-boom' } })
    const withStack = lines.filter((line) => typeof line.err?.stack === 'string')
    expect(withStack).toHaveLength(1)
    expect(withStack[0]).toMatchObject({ level: 50, reqId: 'req-boom', err: { message: 'the compositor fell over' } })
    expect(withStack[0]!.err.stack).toContain('request-log.test.ts')
    expect(requestLines()).toEqual([expect.objectContaining({ reqId: 'req-boom', status: 500 })])
  })

  it('observes the duration once per request, by route pattern, method and status class', async () => {
    const count = async () =>
      (await metrics().requestDuration.get()).values.find(
        (v) => v.metricName?.endsWith('_count') && v.labels.route === '/unit/$thing' && v.labels.method === 'POST' && v.labels.status === '2xx',
      )?.value ?? 0
    const before = await count()
    await withRequestLog(new Request('http://store.test/unit/1', { method: 'POST' }), 'store', () =>
      withRequestLog(new Request('http://store.test/unit/1', { method: 'POST' }), 'api', () => {
        describeRequest({ route: '/unit/$thing' })
        return new Response(null, { status: 204 })
      }),
    )
    expect((await count()) - before).toBe(1)
  })
})

describe('GET /metrics', () => {
  const get = (token?: string) =>
    metricsResponse(new Request('http://store.test/metrics', { headers: token ? { authorization: `Bearer ${token}` } : {} }), 'secret-token-0123456789')

  it('does not exist without METRICS_TOKEN', async () => {
    expect((await metricsResponse(new Request('http://store.test/metrics', { headers: { authorization: 'Bearer anything' } }), undefined)).status).toBe(404)
  })

  it('refuses a missing or wrong token with 401', async () => {
    expect((await get()).status).toBe(401)
    expect((await get('secret-token-0123456780')).status).toBe(401)
    expect((await get('secret')).status).toBe(401)
  })

  it('answers the Prometheus text with the right token', async () => {
    const response = await get('secret-token-0123456789')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/plain')
    const text = await response.text()
    for (const name of [
      'keepsake_http_request_duration_seconds',
      'keepsake_jobs_total',
      'keepsake_payments_total',
      'keepsake_emails_total',
      'keepsake_webhook_events_total',
    ])
      expect(text).toContain(`# TYPE ${name}`)
  })

  it('is answered by the outermost request wrapper, only with the token', async () => {
    const previous = process.env.METRICS_TOKEN
    process.env.METRICS_TOKEN = 'secret-token-0123456789'
    try {
      const bare = await withRequestLog(new Request('http://store.test/metrics'), 'store', () => new Response('the store'))
      expect(bare.status).toBe(401)
      const authorised = await withRequestLog(
        new Request('http://store.test/metrics', { headers: { authorization: 'Bearer secret-token-0123456789' } }),
        'store',
        () => new Response('the store'),
      )
      expect(await authorised.text()).toContain('keepsake_')
    } finally {
      if (previous === undefined) delete process.env.METRICS_TOKEN
      else process.env.METRICS_TOKEN = previous
    }
  })
})
