import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { CartParcel, Order } from '../../app/contract/cart'
import { GiftFields } from '../../app/features/cart/CartParcels'
import { OrderParcels } from '../../app/features/cart/OrderParcels'

/**
 * Issue 42, item 2 (decision 070): what the cart and the order page say about a gift message is what reaches the
 * box for the print provider in use: the local shop prints it on the packing slip; Printify prints no slip of ours,
 * so the message goes only in the e-mail to the recipient.
 */
const parcel = (giftMessage: string, recipientEmail: string) => ({ key: 'p', giftMessage, recipientEmail }) as CartParcel
const fields = (via: 'packing_slip' | 'recipient_email', p: CartParcel) =>
  renderToStaticMarkup(<GiftFields parcel={p} label="Grandma Rose" via={via} busy={false} change={async () => null} />)

describe('the cart’s gift note', () => {
  it('with the local shop: printed on the packing slip, the e-mail optional', () => {
    const html = fields('packing_slip', parcel('', ''))
    expect(html).toContain('Printed on the packing slip, with no prices.')
    expect(html).toMatch(/Grandma Rose’s e-mail.*optional/)
  })

  it('with Printify: no packing slip is promised; the message goes by e-mail, which a message makes required', () => {
    const empty = fields('recipient_email', parcel('', ''))
    expect(empty).not.toContain('packing slip')
    expect(empty).toContain('We e-mail your message to Grandma Rose when the parcel ships: it is not printed in the box.')
    const written = fields('recipient_email', parcel('Love, Ava', 'rose@example.org'))
    expect(written).not.toMatch(/Grandma Rose’s e-mail.*optional/)
    expect(written).toContain('Needed for your message')
    expect(written).not.toContain('role="alert"')
  })

  it('with Printify, a message kept without an e-mail says it reaches nobody', () => {
    const html = fields('recipient_email', parcel('Love, Ava', ''))
    expect(html).toContain('role="alert"')
    expect(html).toContain('Your message will not reach Grandma Rose: add their e-mail, or clear the message.')
    expect(fields('packing_slip', parcel('Love, Ava', ''))).not.toContain('role="alert"')
  })
})

const order = (provider: 'local' | 'printify', recipientEmail: string | null) =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    provider,
    shippingAddress: null,
    lines: [],
    totals: { parcels: [] },
    parcels: [
      {
        id: '00000000-0000-4000-8000-000000000002',
        position: 1,
        addressId: '00000000-0000-4000-8000-000000000003',
        label: 'Grandma Rose',
        shippingAddress: null,
        shippingMethod: 'standard',
        arrivesBy: null,
        items: [],
        giftMessage: 'Love, Ava',
        recipientEmail,
        status: 'paid',
        trackingNumber: null,
        trackingUrl: null,
      },
    ],
  }) as unknown as Order

describe('the order page’s gift message', () => {
  it('with the local shop: the message and its packing slip', () => {
    const html = renderToStaticMarkup(<OrderParcels order={order('local', null)} />)
    expect(html).toContain('Love, Ava')
    expect(html).toContain('/packing-slip')
  })

  it('with Printify: no packing slip nobody prints; says the e-mail it goes to, or that it reaches nobody', () => {
    const sent = renderToStaticMarkup(<OrderParcels order={order('printify', 'rose@example.org')} />)
    expect(sent).not.toContain('/packing-slip')
    expect(sent).not.toMatch(/packing slip/i)
    expect(sent).toContain('E-mailed to rose@example.org when the parcel ships')
    const lost = renderToStaticMarkup(<OrderParcels order={order('printify', null)} />)
    expect(lost).not.toContain('/packing-slip')
    expect(lost).toContain('Not sent: we had no e-mail for Grandma Rose, and Printify does not print messages in the box.')
  })
})
