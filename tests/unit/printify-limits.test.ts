/**
 * Printify's limits are kept, not discovered (issue 50, item 4): against a stand-in that enforces them (600 requests a
 * minute, a daily cap on products the integration creates), a holiday peak's worth of orders goes through with 0
 * refused, each order costing a known number of calls; the store's own product budget refuses before Printify does.
 */
import { describe, expect, it } from 'vitest'
import { PRINTIFY_REQUESTS_PER_MINUTE, PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import type { PrintOrderInput } from '../../app/api/providers/print/provider'
import { PrintProviderError } from '../../app/api/providers/print/provider'
import { metrics } from '../../app/observability/metrics'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'

/** A virtual clock: `sleep` waits until the clock reaches its time; the clock moves to the earliest waiter when all wait. */
function virtualTime(start = Date.parse('2026-12-14T15:00:00Z')) {
  let now = start
  const waiting: { at: number; wake: () => void }[] = []
  const settle = () => new Promise((resolve) => setImmediate(resolve))
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => waiting.push({ at: now + Math.max(0, ms), wake })),
    /** Runs `work` to its end, moving the clock only when nothing else can run. */
    async run<T>(work: Promise<T>): Promise<T> {
      let done = false
      const result = work.finally(() => (done = true))
      while (!done) {
        await settle()
        if (done || waiting.length === 0) continue
        waiting.sort((a, b) => a.at - b.at)
        const next = waiting.shift()!
        now = Math.max(now, next.at)
        next.wake()
      }
      return result
    },
    elapsedMs: () => now - start,
  }
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

function orderInput(k: number, reachable: boolean): PrintOrderInput {
  const origin = reachable ? 'https://shop.keepsake-ornaments.com' : 'http://localhost:3000'
  return {
    orderId: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`,
    reference: `KS-${k}`,
    mayExist: false,
    shippingMethod: 'standard',
    address: {
      name: 'Maya Rivera',
      email: 'maya@example.com',
      phone: '',
      line1: '12 Orchard St',
      line2: '',
      city: 'New York',
      state: 'NY',
      postalCode: '10002',
      country: 'US',
    },
    lines: [
      {
        previewId: `preview-${k}`,
        title: 'Star Photo Ornament',
        description: 'A ceramic ornament.',
        blueprintId: 1186,
        printProviderId: 228,
        variantId: 72965,
        quantity: 1,
        priceCents: 2499,
        printFiles: (['front', 'back'] as const).map((position) => ({
          position,
          fileName: `preview-${k}-${position}.png`,
          url: `${origin}/v1/media/print-files/preview-${k}/${position}.png?expires=1&signature=x`,
          read: async () => PNG,
        })),
      },
    ],
  }
}

/** A virtual clock, a stand-in that enforces Printify's limits, and the store's client against it. */
function limitedPrintify(dailyProducts: number, requestsPerMinute = PRINTIFY_REQUESTS_PER_MINUTE) {
  const time = virtualTime()
  const mock = createPrintifyMock({ now: time.now })
  mock.enforceLimits({ perMinute: PRINTIFY_REQUESTS_PER_MINUTE, dailyProducts, now: time.now })
  const client = new PrintifyClient({
    apiToken: MOCK_PRINTIFY_TOKEN,
    shopId: MOCK_PRINTIFY_SHOP_ID,
    fetch: mock.fetch,
    sleep: time.sleep,
    now: time.now,
    dailyProducts,
    requestsPerMinute,
  })
  return { time, mock, client }
}

async function peak(orders: number, reachable: boolean, dailyProducts = 200, requestsPerMinute = PRINTIFY_REQUESTS_PER_MINUTE) {
  const { time, mock, client } = limitedPrintify(dailyProducts, requestsPerMinute)
  const provider = new PrintifyProvider(client)
  // Twenty job workers' worth at once: each submits an order and sends it to production, as the jobs do.
  let next = 0
  const sent: string[] = []
  await time.run(
    Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < orders) {
          const { providerOrderId } = await provider.submitOrder(orderInput(next++, reachable))
          expect(await provider.sendToProduction(providerOrderId)).toBe('sent')
          sent.push(providerOrderId)
        }
      }),
    ),
  )
  return { mock, sent, elapsedMs: time.elapsedMs(), client }
}

describe('a holiday peak against a Printify that enforces its limits', () => {
  it('300 orders by print file URL: 3 calls each, 0 refused, none faster than 600 a minute, each sent to production once', async () => {
    const { mock, sent, elapsedMs } = await peak(300, true)
    expect(mock.stats().refused).toBe(0)
    expect(sent).toHaveLength(300)
    expect(mock.orders.size).toBe(300)
    // Per order: create order, look at its status, send to production. No product of the store's own, no upload.
    expect(mock.calls).toHaveLength(900)
    expect(mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`)).toHaveLength(0)
    expect([...mock.sentToProduction.values()].every((n) => n === 1)).toBe(true)
    // 900 calls at 600 a minute take at least 89.9 s of the virtual clock.
    expect(elapsedMs).toBeGreaterThanOrEqual((900 - 1) * 100)
  })

  it('the stand-in does refuse a client that goes faster than 600 a minute (so the peak above is kept by our limiter)', async () => {
    const { mock } = await peak(300, true, 200, 6000)
    expect(mock.stats().refused).toBeGreaterThan(0)
  })

  it('150 orders Printify cannot fetch the files of: 6 calls each (two uploads, one product), 0 refused, within the daily product budget', async () => {
    const { mock, client } = await peak(150, false)
    expect(mock.stats().refused).toBe(0)
    expect(mock.orders.size).toBe(150)
    expect(mock.callsTo('POST', `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`)).toHaveLength(150)
    expect(mock.callsTo('POST', '/v1/uploads/images.json')).toHaveLength(300)
    expect(mock.calls).toHaveLength(150 * 6)
    expect(client.productBudget.remaining).toBe(50)
  })

  it('past the day’s product budget the store refuses the product itself, before Printify is asked, and says when it tries again', async () => {
    const { time, mock, client } = limitedPrintify(2)
    const provider = new PrintifyProvider(client)
    await time.run(provider.submitOrder(orderInput(0, false)))
    await time.run(provider.submitOrder(orderInput(1, false)))
    const calls = mock.calls.length
    const refused = await time.run(provider.submitOrder(orderInput(2, false)).catch((error: unknown) => error))
    expect(refused).toBeInstanceOf(PrintProviderError)
    expect((refused as PrintProviderError).status).toBe(429)
    expect((refused as Error).message).toMatch(/today's budget of 2 products is spent/)
    // Refused before anything was uploaded: no upload, no product, no order reached Printify.
    expect(mock.calls.slice(calls)).toEqual([])
    expect(mock.stats().refused).toBe(0)
  })

  it('a 429 from Printify is waited out (Retry-After) and counted in the metric', async () => {
    const time = virtualTime()
    const mock = createPrintifyMock({ now: time.now })
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep: time.sleep, now: time.now })
    const count = async () =>
      (await metrics().providerRateLimited.get()).values.filter((v) => v.labels.call === 'create order').reduce((n, v) => n + v.value, 0)
    const before = await count()
    mock.rateLimitNext(2, '7')
    const started = time.now()
    const { providerOrderId } = await time.run(new PrintifyProvider(client).submitOrder(orderInput(9, true)))
    expect(mock.orders.has(providerOrderId)).toBe(true)
    expect((await count()) - before).toBe(2)
    expect(time.now() - started).toBeGreaterThanOrEqual(14_000)
  })
})
