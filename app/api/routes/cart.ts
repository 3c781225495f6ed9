import { giftMessageVia } from '../../catalogue/gift-messages'
import { cartApi } from '../../contract/endpoints/cart'
import { logger } from '../../observability/log'
import { countWebhookEvent } from '../../observability/metrics'
import { eq } from 'drizzle-orm'
import { Hono, type Context } from 'hono'
import { CART_PAID_MESSAGE } from '../../catalogue/cart-terms'
import { CART_ID_HEADER } from '../../contract/headers'
import { addCartItemResponseSchema, type Cart, type CartParcelChoice } from '../../contract/cart'
import { orders } from '../db/schema'
import { endpoint, readBodyCapped } from '../endpoint'
import type { ApiDeps, ApiEnv, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import { PaymentProviderError } from '../providers/payments/provider'
import { parseStripeWebhook, StripePaymentProvider, StripeWebhookError, type StripeChargeRefund, type StripeWebhookEvent } from '../providers/payments/stripe'
import { generatePreview } from '../services/previews'
import { packingSlip } from '../services/packing-slips'
import { parcelPlan, planQuotes, refuseUnshippable } from '../services/parcel-plans'
import { shippingQuoterFor } from '../services/shipping-quotes'
import { OWN_PARCEL } from '../../catalogue/pricing'
import type { ShippingMethodId } from '../../catalogue/shipping'
import {
  addCartItem,
  cartItemsOf,
  estimatedTaxDestination,
  getCart,
  moveOpenCart,
  openCart,
  orderAgain,
  removeCartItem,
  setCartParcels,
  setCartShipping,
  updateCartItemQuantity,
} from '../services/cart'
import {
  applyPaymentState,
  cancelCheckoutSession,
  closeCheckoutsOfChangedCart,
  createCheckoutSession,
  findSessionForWebhook,
  getCheckoutSession,
  getOrder,
  listOrders,
  payLocalCheckout,
  refundOrder,
} from '../services/checkout'

export const cartRoutes = new Hono<ApiEnv>()

/**
 * The cart a change answers, priced from the print provider's quotes when it gives them (decision 072): read again
 * after the change's transaction, so no request to the provider holds the database.
 */
async function quotedCart(deps: ApiDeps, user: SessionUser, cart: Cart): Promise<Cart> {
  const quoter = shippingQuoterFor(deps)
  return quoter ? getCart(deps.db, user, quoter) : cart
}

/**
 * A method the print provider does not ship a parcel by is refused (409) before the change is made (decision 072):
 * the own parcel's for `method`, the parcels to the book for `choices`, priced as the change would leave them.
 */
async function refuseUnoffered(deps: ApiDeps, user: SessionUser, change: { method: ShippingMethodId } | { choices: CartParcelChoice[] }) {
  const quoter = shippingQuoterFor(deps)
  if (!quoter) return
  const cart = await openCart(deps.db, user.id)
  const rows = await cartItemsOf(deps.db, cart.id)
  const method = 'method' in change ? change.method : cart.shippingMethod
  const plan = await parcelPlan(deps.db, user.id, method, 'choices' in change ? change.choices : cart.parcels, rows)
  const quotes = await planQuotes(quoter, plan, rows, await estimatedTaxDestination(deps.db, user.id))
  refuseUnshippable(
    plan,
    quotes,
    plan.map((p) => p.key).filter((key) => ('method' in change ? key === OWN_PARCEL : key !== OWN_PARCEL)),
  )
}

/** The cart the shopper's page shows (CART_ID_HEADER), when it says one: a change to it is refused once it was paid. */
function cartShown(c: Context<ApiEnv>): string | null {
  const shown = c.req.header(CART_ID_HEADER)?.trim()
  if (!shown) return null
  if (!UUID.test(shown)) {
    throw new AppError('validation_failed', `${CART_ID_HEADER} must be a cart id (a UUID)`, [{ path: `headers.${CART_ID_HEADER}`, message: 'Expected a UUID' }])
  }
  return shown.toLowerCase()
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A change closes the cart's open checkouts; one the payment provider says was paid meanwhile (Stripe, its webhook not
 * here yet) is kept and becomes the order, which the change is not part of: 409, as when the local Pay won (issue 43, item 8).
 */
function refusePaidMeanwhile({ paidMeanwhile }: { paidMeanwhile: boolean }) {
  if (paidMeanwhile) throw new AppError('conflict', CART_PAID_MESSAGE)
}

endpoint(cartRoutes, cartApi.getCart, ({ user }, c) => getCart(c.get('deps').db, user, shippingQuoterFor(c.get('deps'))))

endpoint(cartRoutes, cartApi.addCartItem, async ({ user, body }, c) => {
  const deps = c.get('deps')
  const result = await addCartItem(deps.db, user, body, deps.now())
  if (result.created) await closeCheckoutsOfChangedCart(deps, result.cart.id)
  return c.json(addCartItemResponseSchema.parse({ ...result, cart: await quotedCart(deps, user, result.cart) }), result.created ? 201 : 200)
})

endpoint(cartRoutes, cartApi.updateCartItem, async ({ user, params, body }, c) => {
  const deps = c.get('deps')
  const cart = await updateCartItemQuantity(deps.db, user, params.id, body.quantity, deps.now(), cartShown(c))
  refusePaidMeanwhile(await closeCheckoutsOfChangedCart(deps, cart.id))
  return quotedCart(deps, user, cart)
})

endpoint(cartRoutes, cartApi.removeCartItem, async ({ user, params }, c) => {
  const deps = c.get('deps')
  const cart = await removeCartItem(deps.db, user, params.id, deps.now(), cartShown(c))
  refusePaidMeanwhile(await closeCheckoutsOfChangedCart(deps, cart.id))
  return quotedCart(deps, user, cart)
})

endpoint(cartRoutes, cartApi.setCartShipping, async ({ user, body }, c) => {
  const deps = c.get('deps')
  await refuseUnoffered(deps, user, { method: body.method })
  const { cart, changed } = await setCartShipping(deps.db, user, body.method, deps.now(), cartShown(c))
  if (changed) refusePaidMeanwhile(await closeCheckoutsOfChangedCart(deps, cart.id))
  return quotedCart(deps, user, cart)
})

endpoint(cartRoutes, cartApi.setCartParcels, async ({ user, body }, c) => {
  const deps = c.get('deps')
  await refuseUnoffered(deps, user, { choices: body.parcels })
  const { cart, changed } = await setCartParcels(deps.db, user, body.parcels, deps.now(), giftMessageVia(deps.print.name), cartShown(c))
  if (changed) refusePaidMeanwhile(await closeCheckoutsOfChangedCart(deps, cart.id))
  return quotedCart(deps, user, cart)
})

endpoint(cartRoutes, cartApi.resumeCart, async ({ user }, c) =>
  quotedCart(c.get('deps'), user, await moveOpenCart(c.get('deps').db, user, 'active', c.get('deps').now())),
)

endpoint(cartRoutes, cartApi.abandonCart, async ({ user }, c) =>
  quotedCart(c.get('deps'), user, await moveOpenCart(c.get('deps').db, user, 'abandoned', c.get('deps').now())),
)

endpoint(cartRoutes, cartApi.createCheckoutSession, ({ user }, c) => createCheckoutSession(c.get('deps'), user, c.get('timezone')))

endpoint(cartRoutes, cartApi.getCheckoutSession, ({ user, params }, c) => getCheckoutSession(c.get('deps'), user, params.id))

endpoint(cartRoutes, cartApi.cancelCheckoutSession, ({ user, params }, c) => cancelCheckoutSession(c.get('deps'), user, params.id))

endpoint(cartRoutes, cartApi.payLocalCheckout, ({ user, params, body }, c) => {
  const deps = c.get('deps')
  if (deps.payments.name !== 'local') throw notFound('Checkout session')
  return payLocalCheckout(deps, user, params.id, body)
})

endpoint(cartRoutes, cartApi.listOrders, ({ user }, c) => listOrders(c.get('deps').db, user))

endpoint(cartRoutes, cartApi.orderAgain, async ({ user, params, body }, c) => {
  const deps = c.get('deps')
  const result = await orderAgain(deps.db, user, params.id, deps.now(), {
    year: body?.year,
    render: (request) => generatePreview(deps, user, request),
  })
  if (result.added > 0) await closeCheckoutsOfChangedCart(deps, result.cart.id)
  return { ...result, cart: await quotedCart(deps, user, result.cart) }
})

endpoint(cartRoutes, cartApi.getOrder, ({ user, params }, c) => getOrder(c.get('deps').db, user, params.id))
endpoint(cartRoutes, cartApi.packingSlip, ({ user, params }, c) => packingSlip(c.get('deps').db, user, params.id, params.parcelId))

const MAX_WEBHOOK_BYTES = 256 * 1024

/**
 * A charge refunded in Stripe. Only a full refund marks the order refunded (refundOrder: credit restored, referral
 * reward voided; idempotent, so redeliveries are harmless); a partial refund is logged and changes nothing. The order
 * is found through the PaymentIntent's metadata.checkout_session_id. Anything unknown is acknowledged (Stripe
 * redelivers non-2xx answers for days); only a failure to reach Stripe answers non-2xx, so the event comes again.
 */
async function recordStripeRefund(deps: ApiDeps, event: StripeWebhookEvent, refund: StripeChargeRefund) {
  const label = `[stripe] ${event.type} ${event.eventId} (charge ${refund.chargeId})`
  if (!refund.fullyRefunded) {
    console.info(`${label}: a partial refund (${refund.amountRefundedCents} of ${refund.amountCents} cents); the order is unchanged`)
    return
  }
  if (!refund.paymentIntentId) return console.warn(`${label}: the charge has no payment intent`)
  if (!(deps.payments instanceof StripePaymentProvider)) return console.warn(`${label}: the payment provider cannot look up payment intents`)
  let checkoutSessionId
  try {
    checkoutSessionId = await deps.payments.checkoutSessionIdOfPaymentIntent(refund.paymentIntentId)
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError('provider_failed', `The payment provider could not be reached: ${error.message}`)
    throw error
  }
  if (!checkoutSessionId || !/^[0-9a-f-]{36}$/.test(checkoutSessionId))
    return console.warn(`${label}: payment intent ${refund.paymentIntentId} is unknown or names no checkout session`)
  const [order] = await deps.db.select().from(orders).where(eq(orders.checkoutSessionId, checkoutSessionId))
  if (!order) return console.warn(`${label}: no order for checkout session ${checkoutSessionId}`)
  await refundOrder(deps, order.id)
}

/** Stripe's webhook: verified on the raw body, then the same forward-only state moves and fulfilment as the return page. */
endpoint(cartRoutes, cartApi.stripeWebhook, async (_input, c) => {
  const deps = c.get('deps')
  const secret = deps.config.stripe?.webhookSecret
  if (!secret || deps.payments.name !== 'stripe') throw notFound('Stripe webhooks are not configured')
  const rawBody = (await readBodyCapped(c.req.raw, MAX_WEBHOOK_BYTES, 'The webhook body is too large')).toString('utf8')
  let event
  try {
    event = parseStripeWebhook({
      rawBody,
      signatureHeader: c.req.header('stripe-signature') ?? null,
      secret,
      nowSeconds: Math.floor(deps.now().getTime() / 1000),
    })
  } catch (error) {
    if (error instanceof StripeWebhookError) {
      // An unverified event's type is not to be believed: it is counted as one.
      countWebhookEvent('stripe', 'unverified', 'refused')
      throw new AppError('validation_failed', error.message)
    }
    throw error
  }
  if (event.refund) {
    await recordStripeRefund(deps, event, event.refund)
    countWebhookEvent('stripe', event.type, 'applied')
  } else if (event.state) {
    const row = await findSessionForWebhook(deps.db, event.providerSessionId, event.checkoutSessionId)
    if (row) await applyPaymentState(deps, row, event.state)
    else
      logger().warn({ eventId: event.eventId, type: event.type }, `[stripe] ${event.type} ${event.eventId} for an unknown session ${event.providerSessionId}`)
    countWebhookEvent('stripe', event.type, row ? 'applied' : 'ignored')
  } else countWebhookEvent('stripe', event.type, 'ignored')
  return { received: true as const }
})
