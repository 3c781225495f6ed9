/**
 * The shopper's order e-mails: a confirmation when the order is paid (written in fulfilCheckout's
 * transaction) and a shipping notice when the print provider ships it (written with the status change).
 * Both go through queueEmail, whose unique reference makes each one e-mailed once however often the
 * event is replayed. The templates are pure: plain data in, `{ subject, text, html }` out.
 */
import { describePersonalText } from '../../catalogue/personal-line'
import { eq, inArray } from 'drizzle-orm'
import type { CartTotals, CheckoutLine, ShippingAddress } from '../../contract/cart'
import { formatCents } from '../../catalogue/currency'
import { OWN_PARCEL } from '../../catalogue/pricing'
import { formatWeekday, shippingMethods } from '../../catalogue/shipping'
import { taxLineLabel } from '../../catalogue/sales-tax'
import { trackingLinkFor } from '../../catalogue/tracking'
import type { Database } from '../db/client'
import { orderParcels, orders, previews, users } from '../db/schema'
import type { ApiDeps } from '../env'
import { queueEmail } from './mail'
import { button, cranberry, cream, e, ink, mailLayout, soft } from './mail-layout'

type OrderRow = typeof orders.$inferSelect
type Executor = Pick<Database, 'select' | 'insert'>
type EmailDeps = Pick<ApiDeps, 'config' | 'media'>
export type RenderedEmail = { subject: string; text: string; html: string }

export const orderConfirmationReference = (orderId: string) => `order-confirmation:${orderId}`
export const orderShippedReference = (orderId: string) => `order-shipped:${orderId}`

/** The order's card on /photo-products/orders (OrdersPage gives each card the id `order-<reference>`). */
export const orderPageUrl = (publicUrl: string, reference: string) => `${publicUrl}/photo-products/orders#order-${encodeURIComponent(reference)}`

// ---------------------------------------------------------------------------------------------
// Templates

export type OrderEmailLine = Pick<CheckoutLine, 'title' | 'quantity' | 'unitAmountCents' | 'text'> & {
  /** Absolute URLs of the photos on the ornaments (small renditions), or the design's mockup when those are unknown. */
  imageUrls: string[]
}

export type OrderConfirmationData = {
  firstName: string
  reference: string
  lines: OrderEmailLine[]
  totals: CartTotals
  /** What the card was charged when the payment provider charged another amount than totals.totalCents (orders.charged_cents). */
  chargedCents?: number | null
  shippingAddress: ShippingAddress | null
  /** An order in several parcels: each one's address and money (one parcel: none, the address above says it all). */
  parcels?: ParcelSummary[]
  /** How it ships and the day the checkout promised (one parcel; several: each parcel's own, in `parcels`). */
  delivery?: Delivery
  orderUrl: string
  supportEmail: string
}

/** The shipping method as the checkout named it and the arrival day it promised (issue 32: the e-mails said neither). */
export type Delivery = { method: string; arrivesBy: string | null }

/** "Express shipping, arrives by Tuesday, December 15". */
const deliveryText = (d: Delivery) => `${d.method} shipping${d.arrivesBy ? `, arrives by ${formatWeekday(d.arrivesBy)}` : ''}`

/** One parcel of an order shipping to several addresses, as the confirmation lists it. */
export type ParcelSummary = {
  position: number
  label: string | null
  address: ShippingAddress | null
  itemCount: number
  shippingMethod: string
  arrivesBy: string | null
  shippingCents: number
  taxCents: number
  taxLabel: string | null
}

/** "Parcel 2, to Grandma Rose: 1 ornament, Express shipping $14.99, arrives by Monday, December 14, Sales tax (CA) $1.81". */
const parcelHeadline = (p: ParcelSummary) =>
  `Parcel ${p.position}, to ${p.label ?? 'you'}: ${p.itemCount === 1 ? '1 ornament' : `${p.itemCount} ornaments`}, ${p.shippingMethod} shipping ${
    p.shippingCents === 0 ? 'free' : formatCents(p.shippingCents)
  }${p.arrivesBy ? `, arrives by ${formatWeekday(p.arrivesBy)}` : ''}${p.taxLabel ? `, ${p.taxLabel} ${formatCents(p.taxCents)}` : ''}`

function parcelTextLines(parcels: ParcelSummary[]) {
  return [
    '',
    `Shipping in ${parcels.length} parcels:`,
    ...parcels.flatMap((p) => [parcelHeadline(p), ...(p.address ? addressLines(p.address).map((l) => `  ${l}`) : [])]),
  ]
}

const parcelsHtml = (parcels: ParcelSummary[]) =>
  `<p style="margin:24px 0 4px;font-size:14px;color:${soft}">Shipping in ${parcels.length} parcels</p>${parcels
    .map(
      (p) =>
        `<p style="margin:8px 0 0;font-size:14px;line-height:1.5"><strong>${e(parcelHeadline(p))}</strong>${p.address ? `<br>${addressLines(p.address).map(e).join('<br>')}` : ''}</p>`,
    )
    .join('')}`

export type OrderShippedData = {
  firstName: string
  reference: string
  /** Null when the provider gave none (the order page shows it once it has one). */
  trackingNumber: string | null
  /** Null when the carrier is unknown: the e-mail then gives the number alone. */
  trackingLink: string | null
  shippingAddress: ShippingAddress | null
  /** The parcel's method and promised day. */
  delivery?: Delivery
  /** A box of a parcel that ships in several: how many of its ornaments have shipped so far; absent when all have. */
  progress?: { shipped: number; of: number }
  orderUrl: string
  supportEmail: string
}

/** "1 of 2 shipped", for a parcel part of which has shipped; null once it all has. */
export function shippingProgressText(shipped: number, of: number): string | null {
  return shipped > 0 && shipped < of ? `${shipped} of ${of} shipped` : null
}

const partialText = (progress: OrderShippedData['progress']) => {
  const text = progress && shippingProgressText(progress.shipped, progress.of)
  return text ? `This box is part of your parcel: ${text}. We will write again when the rest is on its way.` : null
}

const lineAmount = (line: OrderEmailLine) => formatCents(line.unitAmountCents * line.quantity)
const quantityText = (line: OrderEmailLine) => `Qty ${line.quantity}${line.quantity > 1 ? ` × ${formatCents(line.unitAmountCents)}` : ''}`

/** The totals as the order page lists them (Totals.tsx), label and amount. */
function totalRows(totals: CartTotals): [string, string][] {
  return [
    ['Subtotal', formatCents(totals.subtotalCents)],
    ...(totals.saleSavingsCents > 0 ? [['Sale savings', `−${formatCents(totals.saleSavingsCents)}`] as [string, string]] : []),
    ...(totals.bundleSavingsCents > 0 ? [['Bundle savings', `−${formatCents(totals.bundleSavingsCents)}`] as [string, string]] : []),
    ['Shipping', totals.shippingCents === 0 ? 'Free' : formatCents(totals.shippingCents)],
    ...(totals.creditsCents > 0 ? [['Store credit', `−${formatCents(totals.creditsCents)}`] as [string, string]] : []),
    ...(taxLineLabel(totals) ? [[taxLineLabel(totals)!, formatCents(totals.taxCents)] as [string, string]] : []),
  ]
}

function addressLines(a: ShippingAddress) {
  return [a.name, a.line1, ...(a.line2 ? [a.line2] : []), `${a.city}, ${a.state} ${a.postalCode}`]
}

/** The order e-mails' frame, whose footer points at the support address for questions about the order. */
const orderLayout = ({ supportEmail, ...rest }: { title: string; preheader: string; body: string; supportEmail: string }) =>
  mailLayout({ ...rest, footer: `Questions about your order? Write to <a href="mailto:${e(supportEmail)}" style="color:${cranberry}">${e(supportEmail)}</a>.` })

const addressHtml = (a: ShippingAddress, delivery?: Delivery) =>
  `<p style="margin:24px 0 4px;font-size:14px;color:${soft}">Shipping to</p><p style="margin:0;font-size:15px;line-height:1.5">${addressLines(a).map(e).join('<br>')}</p>${
    delivery ? `<p style="margin:8px 0 0;font-size:15px;line-height:1.5"><strong>${e(deliveryText(delivery))}</strong></p>` : ''
  }`

/** The end of both e-mails' text: where it ships, the order page and the support address. */
function closingTextLines(data: {
  shippingAddress: OrderConfirmationData['shippingAddress']
  parcels?: ParcelSummary[]
  delivery?: Delivery
  orderUrl: string
  supportEmail: string
}) {
  return [
    ...(data.parcels && data.parcels.length > 1
      ? parcelTextLines(data.parcels)
      : data.shippingAddress
        ? ['', 'Shipping to:', ...addressLines(data.shippingAddress)]
        : []),
    ...(data.delivery && !(data.parcels && data.parcels.length > 1) ? ['', deliveryText(data.delivery)] : []),
    '',
    `See your order: ${data.orderUrl}`,
    '',
    `Questions about your order? Write to ${data.supportEmail}.`,
  ]
}

/** Said under the totals when the card was charged another amount than the order's total. */
const chargeDiffersText = 'Your card was charged a different amount from this order’s total. We’re looking into it and will write to you; you need do nothing.'

export function orderConfirmationEmail(data: OrderConfirmationData): RenderedEmail {
  // The receipt says what was charged: the provider's figure when it differs from the order's total.
  const differs = typeof data.chargedCents === 'number' && data.chargedCents !== data.totals.totalCents
  const total = formatCents(differs ? data.chargedCents! : data.totals.totalCents)
  const orderTotal = formatCents(data.totals.totalCents)
  const subject = `Your Keepsake order ${data.reference} is confirmed`
  const text = [
    `Hi ${data.firstName},`,
    '',
    'Thank you for your order! We’re sending your design to the print shop now, and we’ll e-mail you again when it ships.',
    '',
    `Order ${data.reference}`,
    '',
    ...data.lines.flatMap((line) => [
      `${line.title}`,
      ...(line.text ? [`  Text: ${describePersonalText(line.text)}`] : []),
      `  ${quantityText(line)}: ${lineAmount(line)}`,
    ]),
    '',
    ...totalRows(data.totals).map(([label, value]) => `${label}: ${value}`),
    ...(differs ? [`Order total: ${orderTotal}`] : []),
    `Total paid: ${total}`,
    ...(differs ? ['', chargeDiffersText] : []),
    ...closingTextLines(data),
  ].join('\n')

  const lineRows = data.lines
    .map((line) => {
      const thumbs = line.imageUrls
        .map(
          (url) =>
            `<img src="${e(url)}" width="48" height="48" alt="" style="display:inline-block;width:48px;height:48px;border-radius:8px;object-fit:cover;margin:0 4px 4px 0;background:${cream};border:0">`,
        )
        .join('')
      return `<tr>
<td valign="top" style="padding:12px 8px 12px 0;border-top:1px solid #eee3d6;width:104px">${thumbs}</td>
<td valign="top" style="padding:12px 8px 12px 0;border-top:1px solid #eee3d6;font-size:15px;line-height:1.4"><strong>${e(line.title)}</strong><br>${line.text ? `<span style="font-size:13px;color:${soft}">Text: ${e(describePersonalText(line.text))}</span><br>` : ''}<span style="font-size:13px;color:${soft}">${e(quantityText(line))}</span></td>
<td valign="top" align="right" style="padding:12px 0;border-top:1px solid #eee3d6;font-size:15px;white-space:nowrap">${e(lineAmount(line))}</td>
</tr>`
    })
    .join('\n')
  const totalsHtml = totalRows(data.totals)
    .map(
      ([label, value]) =>
        `<tr><td style="padding:3px 0;font-size:14px;color:${soft}">${e(label)}</td><td align="right" style="padding:3px 0;font-size:14px;white-space:nowrap">${e(value)}</td></tr>`,
    )
    .join('\n')
  const body = `<h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">Thank you, ${e(data.firstName)}!</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">We’re sending your design to the print shop now, and we’ll e-mail you again when it ships.</p>
<p style="margin:0 0 8px;font-size:14px;color:${soft}">Order <span style="font-family:Menlo,Consolas,monospace;color:${ink};font-weight:bold">${e(data.reference)}</span></p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">
${lineRows}
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-top:1px solid #eee3d6;margin-top:4px;padding-top:8px">
${totalsHtml}
${differs ? `<tr><td style="padding:3px 0;font-size:14px;color:${soft}">Order total</td><td align="right" style="padding:3px 0;font-size:14px;white-space:nowrap">${e(orderTotal)}</td></tr>\n` : ''}<tr><td style="padding:8px 0 0;font-size:17px;font-weight:bold">Total paid</td><td align="right" style="padding:8px 0 0;font-size:17px;font-weight:bold;white-space:nowrap">${e(total)}</td></tr>
</table>
${differs ? `<p style="margin:12px 0 0;font-size:14px;line-height:1.5">${e(chargeDiffersText)}</p>` : ''}
${data.parcels && data.parcels.length > 1 ? parcelsHtml(data.parcels) : data.shippingAddress ? addressHtml(data.shippingAddress, data.delivery) : ''}
${button(data.orderUrl, 'See your order')}`
  return { subject, text, html: orderLayout({ title: subject, preheader: `Order ${data.reference}: ${total}`, body, supportEmail: data.supportEmail }) }
}

export function orderShippedEmail(data: OrderShippedData): RenderedEmail {
  const subject = `Your Keepsake order ${data.reference} is on its way`
  const text = [
    `Hi ${data.firstName},`,
    '',
    `Good news: your ornaments have left the print shop. Order ${data.reference} is on its way.`,
    ...(partialText(data.progress) ? ['', partialText(data.progress)!] : []),
    '',
    data.trackingNumber ? `Tracking number: ${data.trackingNumber}` : 'The tracking number will be on your order page as soon as the carrier gives one.',
    ...(data.trackingLink ? [`Track your parcel: ${data.trackingLink}`] : []),
    ...closingTextLines(data),
  ].join('\n')
  const number = data.trackingNumber ? e(data.trackingNumber) : ''
  const body = `<h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">Your ornaments are on their way, ${e(data.firstName)}!</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">They have left the print shop. Order <span style="font-family:Menlo,Consolas,monospace;font-weight:bold;white-space:nowrap">${e(data.reference)}</span> is with the carrier now.</p>
${partialText(data.progress) ? `<p style="margin:0 0 16px;font-size:15px;line-height:1.5">${e(partialText(data.progress)!)}</p>` : ''}
${
  data.trackingNumber
    ? `<p style="margin:0 0 4px;font-size:14px;color:${soft}">Tracking number</p>
<p style="margin:0;font-size:18px;font-weight:bold;font-family:Menlo,Consolas,monospace;word-break:break-all">${data.trackingLink ? `<a href="${e(data.trackingLink)}" style="color:${cranberry}">${number}</a>` : number}</p>`
    : `<p style="margin:0;font-size:15px;line-height:1.5">The tracking number will be on your order page as soon as the carrier gives one.</p>`
}
${data.shippingAddress ? addressHtml(data.shippingAddress, data.delivery) : ''}
${data.trackingLink ? button(data.trackingLink, 'Track your parcel') : ''}
<p style="margin:16px 0 0;font-size:14px"><a href="${e(data.orderUrl)}" style="color:${cranberry}">See your order</a></p>`
  return {
    subject,
    text,
    html: orderLayout({
      title: subject,
      preheader: data.trackingNumber ? `Tracking number ${data.trackingNumber}` : `Order ${data.reference} has shipped`,
      body,
      supportEmail: data.supportEmail,
    }),
  }
}

// ---------------------------------------------------------------------------------------------
// Queueing (inside the transaction of the event)

async function shopperOf(db: Executor, userId: string) {
  const [user] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, userId))
  if (!user) throw new Error(`user ${userId} not found`)
  return user
}

/**
 * Each line's photos as absolute URLs of their small renditions (served without a cookie, or from the
 * bucket); a line whose preview is gone shows its mockup instead.
 */
async function lineImages(db: Executor, deps: EmailDeps, order: OrderRow): Promise<OrderEmailLine[]> {
  const previewIds = order.printItems.map((i) => i.previewId)
  const rows = previewIds.length ? await db.select({ id: previews.id, design: previews.design }).from(previews).where(inArray(previews.id, previewIds)) : []
  const designOf = new Map(rows.map((r) => [r.id, r.design]))
  const previewOf = new Map(order.printItems.map((i) => [i.cartItemId, i.previewId]))
  return order.lines.map((line) => {
    const photoIds = (designOf.get(previewOf.get(line.cartItemId) ?? '') ?? []).map((cell) => cell.photoId)
    const urls = photoIds.length ? photoIds.map((id) => deps.media.photoUrl(id, 'small')) : line.previewCdnUrl ? [line.previewCdnUrl] : []
    return {
      title: line.title,
      quantity: line.quantity,
      unitAmountCents: line.unitAmountCents,
      ...(line.text ? { text: line.text } : {}),
      imageUrls: urls.map((u) => deps.media.absolute(u)),
    }
  })
}

/** The order was just made (fulfilCheckout's transaction): the confirmation to the shopper's account address. */
/** The order's parcels as its confirmation lists them, with their share of the totals (by parcel key). */
async function parcelSummaries(db: Executor, order: OrderRow): Promise<ParcelSummary[]> {
  const rows = await db.select().from(orderParcels).where(eq(orderParcels.orderId, order.id)).orderBy(orderParcels.position)
  return rows.map((p) => {
    const money = order.totals.parcels?.find((m) => m.key === (p.addressId ?? OWN_PARCEL))
    return {
      position: p.position,
      label: p.label,
      address: p.shippingAddress ?? order.shippingAddress ?? null,
      itemCount: p.items.reduce((n, i) => n + i.quantity, 0),
      shippingMethod: shippingMethods[p.shippingMethod].label,
      arrivesBy: p.arrivesBy,
      shippingCents: money?.shippingCents ?? 0,
      taxCents: money?.taxCents ?? 0,
      taxLabel: money ? taxLineLabel(money) : null,
    }
  })
}

export async function queueOrderConfirmation(db: Executor, deps: EmailDeps, order: OrderRow, now: Date) {
  const shopper = await shopperOf(db, order.userId)
  const parcels = await parcelSummaries(db, order)
  const only = parcels.length === 1 ? parcels[0]! : null
  return queueEmail(db, deps.config, {
    kind: 'order-confirmation',
    reference: orderConfirmationReference(order.id),
    to: shopper.email,
    sendAfter: now,
    ...orderConfirmationEmail({
      firstName: shopper.firstName,
      reference: order.reference,
      lines: await lineImages(db, deps, order),
      totals: order.totals,
      chargedCents: order.chargedCents,
      shippingAddress: order.shippingAddress ?? null,
      parcels,
      ...(only ? { delivery: { method: only.shippingMethod, arrivesBy: only.arrivesBy } } : {}),
      orderUrl: orderPageUrl(deps.config.publicUrl, order.reference),
      supportEmail: deps.config.supportEmail,
    }),
  })
}

/** The order just moved to shipped (in the same transaction, so its tracking number is the one written). */
/** The note a parcel's recipient gets when it ships: who it is from and when it arrives; no prices, nothing of the order. */
export function giftNoteEmail(data: {
  senderFirstName: string
  recipientName: string
  arrivesBy: string | null
  /** Only when the box cannot carry it (a Printify parcel: decision 054); the local shop prints it on the slip. */
  message?: string | null
  supportEmail: string
}): RenderedEmail {
  const subject = `A gift is on its way from ${data.senderFirstName}`
  const when = data.arrivesBy ? `It should arrive by ${formatWeekday(data.arrivesBy)}.` : 'It should arrive in the next few days.'
  const text = [
    `Hi ${data.recipientName},`,
    '',
    `${data.senderFirstName} has sent you a gift from Keepsake, and it is on its way. ${when}`,
    '',
    ...(data.message ? [`${data.senderFirstName} wrote:`, data.message, ''] : []),
    'No peeking!',
  ].join('\n')
  const body = `<h1 style="margin:0 0 12px;font-size:24px;line-height:1.3">A gift is on its way from ${e(data.senderFirstName)}</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.5">Hi ${e(data.recipientName)}, ${e(data.senderFirstName)} has sent you a gift from Keepsake, and it is on its way. ${e(when)}</p>
${data.message ? `<p style="margin:0 0 4px;font-size:14px;color:${soft}">${e(data.senderFirstName)} wrote:</p><p style="margin:0 0 16px;font-size:18px;line-height:1.5">${e(data.message).replace(/\n/g, '<br>')}</p>` : ''}
<p style="margin:0;font-size:16px;line-height:1.5">No peeking!</p>`
  return { subject, text, html: mailLayout({ title: subject, preheader: when, body, footer: `Questions? Write to ${e(data.supportEmail)}.` }) }
}

export const giftNoteReference = (parcelId: string) => `gift-note:${parcelId}`

/** One parcel shipped: its tracking and where it goes (an order of one parcel: the parcel has the order's id). */
/** One shipment of a parcel, as its shipping e-mail tells it; the first keeps the parcel's reference (one e-mail per shipment). */
export type ShippedBox = { position: number; trackingNumber: string | null; trackingUrl: string | null; progress?: { shipped: number; of: number } }

export const shipmentEmailReference = (parcelId: string, position: number) =>
  position <= 1 ? orderShippedReference(parcelId) : `${orderShippedReference(parcelId)}:${position}`

export async function queueOrderShipped(db: Executor, deps: EmailDeps, parcelId: string, now: Date, box?: ShippedBox) {
  const [parcel] = await db.select().from(orderParcels).where(eq(orderParcels.id, parcelId))
  if (!parcel) throw new Error(`parcel ${parcelId} not found`)
  const [order] = await db.select().from(orders).where(eq(orders.id, parcel.orderId))
  if (!order) throw new Error(`order ${parcel.orderId} not found`)
  const shopper = await shopperOf(db, order.userId)
  // A gift to someone with an e-mail address: they hear it is coming (once per parcel, like the shopper's notice).
  if (parcel.recipientEmail)
    await queueEmail(db, deps.config, {
      kind: 'gift-note',
      reference: giftNoteReference(parcel.id),
      to: parcel.recipientEmail,
      sendAfter: now,
      ...giftNoteEmail({
        senderFirstName: shopper.firstName,
        recipientName: parcel.shippingAddress?.name ?? 'there',
        arrivesBy: parcel.arrivesBy,
        message: order.provider === 'printify' ? parcel.giftMessage : null,
        supportEmail: deps.config.supportEmail,
      }),
    })
  return queueEmail(db, deps.config, {
    kind: 'order-shipped',
    reference: shipmentEmailReference(parcel.id, box?.position ?? 1),
    to: shopper.email,
    sendAfter: now,
    ...orderShippedEmail({
      firstName: shopper.firstName,
      reference: order.reference,
      trackingNumber: box ? box.trackingNumber : parcel.trackingNumber,
      trackingLink: box ? trackingLinkFor(box.trackingNumber, box.trackingUrl) : trackingLinkFor(parcel.trackingNumber, parcel.trackingUrl),
      shippingAddress: parcel.shippingAddress ?? null,
      delivery: { method: shippingMethods[parcel.shippingMethod].label, arrivesBy: parcel.arrivesBy },
      progress: box?.progress,
      orderUrl: orderPageUrl(deps.config.publicUrl, order.reference),
      supportEmail: deps.config.supportEmail,
    }),
  })
}
