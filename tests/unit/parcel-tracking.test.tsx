import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { OrderParcel } from '../../app/contract/cart'
import { ParcelTracking } from '../../app/features/cart/OrderParcels'

/** Issue 42, item 7: the order page says how much of a parcel has shipped and lists every box's tracking. */
const box = (position: number, trackingNumber: string | null): OrderParcel['shipments'][number] => ({
  position,
  carrier: 'usps',
  trackingNumber,
  trackingUrl: trackingNumber ? `https://tools.usps.com/go/TrackConfirmAction?tLabels=${trackingNumber}` : null,
  items: null,
  shippedAt: '2026-12-02T10:00:00.000Z',
  deliveredAt: null,
})
const parcel = (shipments: OrderParcel['shipments'], shippingProgress: string | null) =>
  ({ shipments, shippingProgress, trackingNumber: shipments.at(-1)?.trackingNumber ?? null, trackingUrl: null }) as OrderParcel

describe('ParcelTracking', () => {
  it('says "1 of 2 shipped" with the first box’s tracking while the rest is on its way', () => {
    const html = renderToStaticMarkup(<ParcelTracking parcel={parcel([box(1, '9400111899221111111111')], '1 of 2 shipped')} label="Tracking number" />)
    expect(html).toContain('1 of 2 shipped')
    expect(html).toContain('Tracking number')
    expect(html).toContain('9400111899221111111111')
  })

  it('lists every box once all have shipped, and says nothing before any has', () => {
    const html = renderToStaticMarkup(<ParcelTracking parcel={parcel([box(1, '9400111899221111111111'), box(2, '9400111899222222222222')], null)} />)
    expect(html).not.toContain('shipped')
    expect(html).toContain('Box 1')
    expect(html).toContain('9400111899222222222222')
    expect(renderToStaticMarkup(<ParcelTracking parcel={parcel([], null)} />)).toBe('')
  })
})
