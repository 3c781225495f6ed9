import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import {
  addCartItemRequestSchema,
  addCartItemResponseSchema,
  cartItemParamsSchema,
  cartSchema,
  checkoutSessionParamsSchema,
  checkoutSessionSchema,
  orderParamsSchema,
  orderSchema,
  ordersResponseSchema,
  quantitySchema,
} from '~/contract/cart'
import { z } from '~/contract/zod'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'
import { unwrap } from '../../lib/api-outcome'
import { orSignedOut, outcomeOf } from '../../lib/api-outcome.server'

const CART = '/photo-products-cart'

/** GET /v1/photo-products-cart: the shopper's open cart (it always exists), or null when signed out. */
export const getCart = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) => orSignedOut(() => apiForRequest({ timezone: context.timezone }).call(CART, { schema: cartSchema })))

/** POST /v1/photo-products-cart/items: 201 for a new line, 200 when the same itemIdentifier is already there. */
export const addCartItem = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(addCartItemRequestSchema)
  .handler(({ data, context }) =>
    outcomeOf(() =>
      apiForRequest({ timezone: context.timezone }).call(`${CART}/items`, { method: 'POST', body: data, schema: addCartItemResponseSchema }),
    ),
  )

export const updateCartItemQuantity = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(z.object({ id: cartItemParamsSchema.shape.id, quantity: quantitySchema }))
  .handler(({ data, context }) =>
    outcomeOf(() =>
      apiForRequest({ timezone: context.timezone }).call(`${CART}/items/${data.id}`, {
        method: 'PUT',
        body: { quantity: data.quantity },
        schema: cartSchema,
      }),
    ),
  )

export const removeCartItem = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(cartItemParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`${CART}/items/${data.id}`, { method: 'DELETE', schema: cartSchema })),
  )

/** PATCH resume: 409 when the cart is not abandoned. */
export const resumeCart = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`${CART}/resume`, { method: 'PATCH', schema: cartSchema })),
  )

/** PATCH abandon: 409 when the cart is not active. */
export const abandonCart = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`${CART}/abandon`, { method: 'PATCH', schema: cartSchema })),
  )

/** POST checkout-session: its `url` is where the shopper pays (our local page or Stripe). 422 for an empty cart. */
export const createCheckoutSession = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    outcomeOf(() =>
      apiForRequest({ timezone: context.timezone }).call(`${CART}/checkout-session`, { method: 'POST', schema: checkoutSessionSchema }),
    ),
  )

/** GET checkout-session/{id}: also fulfils a paid session, so `orderId` appears once it is paid. */
export const getCheckoutSession = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(checkoutSessionParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`${CART}/checkout-session/${data.id}`, { schema: checkoutSessionSchema })),
  )

/** Ends an open session (status expired); its cart becomes abandoned. */
export const cancelCheckoutSession = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(checkoutSessionParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() =>
      apiForRequest({ timezone: context.timezone }).call(`${CART}/checkout-session/${data.id}/cancel`, {
        method: 'POST',
        schema: checkoutSessionSchema,
      }),
    ),
  )

/**
 * POST /v1/checkout/local/{id}/pay. The form's fields go to the API as typed: it owns the rules and
 * answers each refusal with the field it concerns (400 with issues), or 402 for a declined card.
 * An e-gift's session is paid with the card alone (no shippingAddress): a gift ships nothing.
 */
export const payLocalCheckout = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(
    z.object({
      id: checkoutSessionParamsSchema.shape.id,
      cardNumber: z.string().max(64),
      shippingAddress: z.record(z.string().max(32), z.string().max(500)).optional(),
    }),
  )
  .handler(({ data, context }) =>
    outcomeOf(() =>
      apiForRequest({ timezone: context.timezone }).call(`/checkout/local/${data.id}/pay`, {
        method: 'POST',
        body: { cardNumber: data.cardNumber, shippingAddress: data.shippingAddress },
        schema: checkoutSessionSchema,
      }),
    ),
  )

/** The shopper's orders, newest first as the API sends them, or null when signed out. */
export const getOrders = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    orSignedOut(async () => (await apiForRequest({ timezone: context.timezone }).call('/photo-products-orders', { schema: ordersResponseSchema })).orders),
  )

export const getOrder = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(orderParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`/photo-products-orders/${data.id}`, { schema: orderSchema })),
  )

export const cartQuery = () => queryOptions({ queryKey: ['cart'], queryFn: () => getCart() })

/** The session as an outcome: its pages tell a session that is not found from one that failed to load. */
export const checkoutSessionQuery = (id: string) =>
  queryOptions({ queryKey: ['checkout-session', id], queryFn: () => getCheckoutSession({ data: { id } }), staleTime: 0 })

export const ordersQuery = () => queryOptions({ queryKey: ['orders'], queryFn: () => getOrders(), staleTime: 10_000 })

export const orderQuery = (id: string) =>
  queryOptions({ queryKey: ['order', id], queryFn: async () => unwrap(await getOrder({ data: { id } })), staleTime: 10_000 })
