import { describe, expect, it } from 'vitest'
import { PrintifyClient } from '../../app/api/providers/print/printify'
import type { ShippingCost, ShippingCostQuery } from '../../app/api/providers/print/provider'
import { LocalPrintProvider } from '../../app/api/providers/print/local'
import { parcelPrice, QUOTE_TTL_MS, shippingQuoterFor, ShippingQuoter } from '../../app/api/services/shipping-quotes'
import { createPrintifyMock, MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'

const sleep = async () => {}

describe('PrintifyClient.shippingCosts', () => {
  it('reads the v2 rows of a method and answers no rows for a method the provider does not serve', async () => {
    const mock = createPrintifyMock()
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep })
    mock.setShippingRates(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'express', [
      { variantId: 72965, country: 'US', firstItem: 1250, additionalItems: 300 },
    ])
    expect(await client.shippingCosts(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'express')).toEqual([
      { variantId: 72965, country: 'US', firstItemCents: 1250, additionalItemsCents: 300 },
    ])
    expect(
      mock.callsTo('GET', `/v2/catalog/blueprints/${MOCK_ORNAMENT_BLUEPRINT}/print_providers/${MOCK_ORNAMENT_PROVIDER}/shipping/express.json`),
    ).toHaveLength(1)
    expect(await client.shippingCosts(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'economy')).toEqual([])
  })

  it('is tried once: a failing catalog is an error at the first answer, not after retries', async () => {
    const mock = createPrintifyMock()
    const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch, sleep })
    mock.failCatalog(503)
    await expect(client.shippingCosts(MOCK_ORNAMENT_BLUEPRINT, MOCK_ORNAMENT_PROVIDER, 'standard')).rejects.toThrow(/HTTP 503/)
    expect(mock.calls).toHaveLength(1)
  })
})

describe('parcelPrice', () => {
  const star = { firstItemCents: 450, additionalItemsCents: 125 }
  const tree = { firstItemCents: 700, additionalItemsCents: 100 }
  it('charges one item at its first-item rate and the others at their additional rate, the first being the dearest', () => {
    expect(parcelPrice([{ quantity: 1 }], [star])).toBe(450)
    expect(parcelPrice([{ quantity: 3 }], [star])).toBe(450 + 2 * 125)
    expect(parcelPrice([{ quantity: 2 }, { quantity: 1 }], [star, tree])).toBe(700 + 2 * 125)
  })
  it('is null when a line is not shipped that way, and unknown when a rate is', () => {
    expect(parcelPrice([{ quantity: 1 }, { quantity: 1 }], [star, null])).toBeNull()
    expect(parcelPrice([{ quantity: 1 }], [undefined])).toBeUndefined()
    expect(parcelPrice([], [])).toBeUndefined()
  })
})

describe('ShippingQuoter', () => {
  it('asks once per method for every variant and state until the quotes are older than the TTL', async () => {
    const asked: ShippingCostQuery[] = []
    let now = 0
    const provider = Object.assign(new LocalPrintProvider(), {
      async shippingCosts(query: ShippingCostQuery): Promise<ShippingCost[]> {
        asked.push(query)
        return [{ variantId: 72965, country: 'US', firstItemCents: 450, additionalItemsCents: 125 }]
      },
    })
    const quoter = new ShippingQuoter(provider, () => now)
    const parcel = (key: string, state: string) => ({ key, lines: [{ variantId: 72965, quantity: 2 }], destination: { state, estimated: false } })
    const quotes = await quoter.quotePlan([parcel('a', 'NY'), parcel('b', 'OH')])
    expect(quotes.get('a')).toEqual({ standard: 575, express: 575 })
    expect(asked.map((q) => q.method).sort()).toEqual(['express', 'standard'])
    await quoter.quotePlan([parcel('c', 'CA'), parcel('a', 'NY')])
    expect(asked).toHaveLength(2)
    // A variant the answer does not list is not offered.
    expect((await quoter.quotePlan([{ key: 'd', lines: [{ variantId: 72963, quantity: 1 }], destination: null }])).get('d')).toEqual({
      standard: null,
      express: null,
    })
    expect(asked).toHaveLength(2)
    now = QUOTE_TTL_MS + 1
    await quoter.quotePlan([parcel('a', 'NY')])
    expect(asked).toHaveLength(4)
  })

  it('does not exist for the local provider: the table prices every parcel', () => {
    expect(shippingQuoterFor({ print: new LocalPrintProvider(), now: () => new Date() })).toBeNull()
  })
})
