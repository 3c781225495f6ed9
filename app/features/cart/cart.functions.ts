import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import {
  addCartItemRequestSchema,
  cartItemParamsSchema,
  checkoutSessionParamsSchema,
  orderParamsSchema,
  quantitySchema,
  setCartShippingRequestSchema,
} from '~/contract/cart'
import { cartApi } from '~/contract/endpoints/cart'
import { CART_ID_HEADER } from '~/contract/headers'
import { z } from '~/contract/zod'
import type { CallOptions } from '~/lib/api-client'
import { unwrap } from '~/lib/api-outcome'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

export { cartQuery, getCart } from './cart-query.functions'

/** 201 for a new line, 200 when the same itemIdentifier is already there. */
export const addCartItem = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(addCartItemRequestSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(cartApi.addCartItem, { body: data })))

/**
 * The cart the page shows, named on each change (CART_ID_HEADER): the API refuses the change (409) when another tab paid
 * that cart meanwhile, instead of saving it to a cart no order will see (issue 43, item 8).
 */
const shownCart = z.object({ cartId: z.uuid().optional() })
const onCart = (cartId: string | undefined): CallOptions => ({ headers: cartId ? { [CART_ID_HEADER]: cartId } : {} })

export const updateCartItemQuantity = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(z.object({ id: cartItemParamsSchema.shape.id, quantity: quantitySchema }).extend(shownCart.shape))
  .handler(({ data, context: { api } }) =>
    outcomeOf(() => api.call(cartApi.updateCartItem, { params: { id: data.id }, body: { quantity: data.quantity } }, onCart(data.cartId))),
  )

export const removeCartItem = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(cartItemParamsSchema.extend(shownCart.shape))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(cartApi.removeCartItem, { params: { id: data.id } }, onCart(data.cartId))))

/** 409 when the cart is not abandoned. */
export const resumeCart = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => outcomeOf(() => api.call(cartApi.resumeCart)))

/** Its `url` is where the shopper pays (our local page or Stripe). 422 for an empty cart. */
export const createCheckoutSession = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => outcomeOf(() => api.call(cartApi.createCheckoutSession)))

/** Also fulfils a paid session, so `orderId` appears once it is paid. */
export const getCheckoutSession = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(checkoutSessionParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(cartApi.getCheckoutSession, { params: data })))

/** Ends an open session (status expired); its cart becomes abandoned. */
export const cancelCheckoutSession = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(checkoutSessionParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(cartApi.cancelCheckoutSession, { params: data })))

/**
 * The form's fields go to the API as typed: it owns the rules and answers each refusal with the field
 * it concerns (400 with issues), or 402 for a declined card. An e-gift's session is paid with the card
 * alone (no shippingAddress): a gift ships nothing.
 */
export const payLocalCheckout = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(
    z.object({
      id: checkoutSessionParamsSchema.shape.id,
      cardNumber: z.string().max(64),
      shippingAddress: z.record(z.string().max(32), z.string().max(500)).optional(),
    }),
  )
  .handler(({ data, context: { api } }) =>
    outcomeOf(() =>
      api.call(cartApi.payLocalCheckout, {
        params: { id: data.id },
        // The API validates the address field by field and answers each refusal with its path.
        body: { cardNumber: data.cardNumber, shippingAddress: data.shippingAddress } as never,
      }),
    ),
  )

/** The shopper's orders, newest first as the API sends them, or null when signed out. */
export const getOrders = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(cartApi.listOrders)).orders))

export const getOrder = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(orderParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(cartApi.getOrder, { params: data })))

/**
 * The session as an outcome: its pages tell a session that is not found from one that failed to load.
 * Always stale, so each page's loader (and a tab shown again) asks for the payment's status afresh; the
 * page mounting on its loader's answer (or the server render's) does not ask a second time (issue 29).
 */
export const checkoutSessionQuery = (id: string) =>
  queryOptions({ queryKey: ['checkout-session', id], queryFn: () => getCheckoutSession({ data: { id } }), staleTime: 0, refetchOnMount: false })

export const ordersQuery = () => queryOptions({ queryKey: ['orders'], queryFn: () => getOrders(), staleTime: 10_000 })

export const orderQuery = (id: string) =>
  queryOptions({ queryKey: ['order', id], queryFn: async () => unwrap(await getOrder({ data: { id } })), staleTime: 10_000 })

/** The order's designs back in the cart at today's prices; 404 for an order that is not the shopper's. */
export const orderAgain = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(orderParamsSchema.extend({ year: z.number().int().min(2000).max(2099).optional() }))
  .handler(({ data: { year, ...params }, context: { api } }) =>
    outcomeOf(() => api.call(cartApi.orderAgain, { params, body: year === undefined ? undefined : { year } })),
  )

/** The cart with the chosen method charged; 400 for a method that is not one. */
export const setCartShipping = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(setCartShippingRequestSchema.extend(shownCart.shape))
  .handler(({ data: { cartId, ...body }, context: { api } }) => outcomeOf(() => api.call(cartApi.setCartShipping, { body }, onCart(cartId))))

/**
 * The cart with its parcels to address book entries replaced; 404 for an address or a line that is not the
 * shopper's, 422 for more than a line holds, 400 (with the field) for a gift message or e-mail refused.
 */
export const setCartParcels = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(
    // Bounded in size only: the API owns the rules and answers each refusal with the field it concerns.
    z
      .object({
        parcels: z
          .array(
            z.object({
              addressId: z.string().max(64),
              shippingMethod: z.string().max(16),
              giftMessage: z.string().max(2000),
              recipientEmail: z.string().max(500),
              items: z.array(z.object({ cartItemId: z.string().max(64), quantity: z.number() })).max(40),
            }),
          )
          .max(20),
      })
      .extend(shownCart.shape),
  )
  .handler(({ data: { cartId, ...body }, context: { api } }) => outcomeOf(() => api.call(cartApi.setCartParcels, { body: body as never }, onCart(cartId))))
