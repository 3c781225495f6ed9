/**
 * The packing slip of one parcel, as the local print shop prints it and puts it in the box: what the parcel
 * holds, who it is for and from, and the gift message. No prices and no totals: a gift's recipient reads it
 * (issue 33, item 3; decision 054). The shopper who placed the order can open it from the order page.
 */
import { and, eq } from 'drizzle-orm'
import { describePersonalText } from '../../catalogue/personal-line'
import type { Database } from '../db/client'
import { orderParcels, orders, users } from '../db/schema'
import { notFound } from '../errors'
import type { SessionUser } from '../env'
import { cranberry, cream, e, ink, soft } from './mail-layout'

type OrderRow = typeof orders.$inferSelect
type ParcelRow = typeof orderParcels.$inferSelect

/** The slip as a printable page. */
export function packingSlipHtml({ order, parcel, parcelCount, senderName }: { order: OrderRow; parcel: ParcelRow; parcelCount: number; senderName: string }) {
  const quantities = new Map(parcel.items.map((i) => [i.cartItemId, i.quantity]))
  const lines = order.lines.filter((l) => (quantities.get(l.cartItemId) ?? 0) > 0)
  const address = parcel.shippingAddress
  const items = lines
    .map(
      (l) =>
        `<tr><td class="qty">${quantities.get(l.cartItemId)} ×</td><td><strong>${e(l.title)}</strong> (matching pair)${
          l.text ? `<br><span class="soft">${e(describePersonalText(l.text))}</span>` : ''
        }</td></tr>`,
    )
    .join('\n')
  const message = parcel.giftMessage
    ? `<section class="message" aria-label="Gift message"><p class="soft">A message from ${e(senderName)}</p><p class="words">${e(parcel.giftMessage).replace(/\n/g, '<br>')}</p></section>`
    : ''
  const title = `Packing slip ${order.reference}${parcelCount > 1 ? `-${parcel.position}` : ''}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>
  body { margin: 0; background: ${cream}; color: ${ink}; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; }
  main { max-width: 40rem; margin: 0 auto; padding: 2rem 1.25rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
  .soft { color: ${soft}; margin: 0; }
  table { border-collapse: collapse; width: 100%; }
  td { padding: .5rem 0; vertical-align: top; border-top: 1px solid #eee3d6; }
  td.qty { width: 3.5rem; font-weight: 700; white-space: nowrap; }
  address { font-style: normal; }
  .message { margin-top: 1.5rem; border: 2px solid ${cranberry}; border-radius: 1rem; padding: 1rem 1.25rem; background: #fff; }
  .words { font-size: 1.25rem; margin: .5rem 0 0; overflow-wrap: anywhere; }
  @media print { body { background: #fff; } main { padding: 0; } }
</style>
</head>
<body>
<main>
<h1>Keepsake</h1>
<p class="soft">${e(title)}${parcelCount > 1 ? ` · parcel ${parcel.position} of ${parcelCount}` : ''}</p>
${message}
<h2>In this box</h2>
<table>
${items}
</table>
${
  address
    ? `<h2>Ship to</h2>
<address>${e(address.name)}<br>${e(address.line1)}${address.line2 ? `<br>${e(address.line2)}` : ''}<br>${e(address.city)}, ${e(address.state)} ${e(address.postalCode)}</address>`
    : ''
}
<p class="soft" style="margin-top:1.5rem">From ${e(senderName)}, made with photos from the family album.</p>
</main>
</body>
</html>`
}

/** GET: the slip of one of the shopper's parcels; another shopper's order or parcel is not found. */
export async function packingSlip(db: Database, user: SessionUser, orderId: string, parcelId: string): Promise<Response> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, user.id)))
  if (!order) throw notFound('Order')
  const parcels = await db.select().from(orderParcels).where(eq(orderParcels.orderId, order.id))
  const parcel = parcels.find((p) => p.id === parcelId)
  if (!parcel) throw notFound('Parcel')
  const [sender] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, order.userId))
  const html = packingSlipHtml({ order, parcel, parcelCount: parcels.length, senderName: sender?.firstName ?? 'your family' })
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'private, no-store',
      // The page holds the shopper's words (escaped): it may load nothing and run nothing, only style itself.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    },
  })
}
