import type { Endpoint } from '../endpoint'
import {
  addCartItemRequestSchema,
  addCartItemResponseSchema,
  cartItemParamsSchema,
  cartSchema,
  checkoutSessionParamsSchema,
  checkoutSessionSchema,
  localPaymentRequestSchema,
  orderParamsSchema,
  orderSchema,
  ordersResponseSchema,
  updateCartItemRequestSchema,
} from '../cart'
import { z } from '../zod'

const tag = 'photo-products-cart'

const webhookResponse = z.object({ received: z.literal(true) })

export const cartApi = {
  getCart: { method: 'get', path: '/photo-products-cart', tag, summary: 'The shopper’s cart with server-computed totals', auth: 'user', response: cartSchema },
  addCartItem: {
    method: 'post',
    path: '/photo-products-cart/items',
    tag,
    summary: 'Add a designed item; the same itemIdentifier twice keeps one line (201 new, 200 already there)',
    auth: 'user',
    body: addCartItemRequestSchema,
    response: addCartItemResponseSchema,
    status: 201,
  },
  updateCartItem: { method: 'put', path: '/photo-products-cart/items/:id', tag, summary: 'Change a line’s quantity', auth: 'user', params: cartItemParamsSchema, body: updateCartItemRequestSchema, response: cartSchema },
  removeCartItem: { method: 'delete', path: '/photo-products-cart/items/:id', tag, summary: 'Remove a line', auth: 'user', params: cartItemParamsSchema, response: cartSchema },
  resumeCart: { method: 'patch', path: '/photo-products-cart/resume', tag, summary: 'Resume an abandoned cart (409 when it is not abandoned)', auth: 'user', response: cartSchema },
  abandonCart: { method: 'patch', path: '/photo-products-cart/abandon', tag, summary: 'Abandon the cart (409 when it is not active)', auth: 'user', response: cartSchema },
  createCheckoutSession: { method: 'post', path: '/photo-products-cart/checkout-session', tag, summary: 'Create a checkout session for the cart; answers where to pay', auth: 'user', response: checkoutSessionSchema, status: 201 },
  getCheckoutSession: {
    method: 'get',
    path: '/photo-products-cart/checkout-session/:id',
    tag,
    summary: 'A checkout session’s state; a paid session is fulfilled on the way',
    auth: 'user',
    params: checkoutSessionParamsSchema,
    response: checkoutSessionSchema,
  },
  cancelCheckoutSession: {
    method: 'post',
    path: '/photo-products-cart/checkout-session/:id/cancel',
    tag,
    summary: 'End an unpaid checkout session; the cart is abandoned until resumed',
    auth: 'user',
    params: checkoutSessionParamsSchema,
    response: checkoutSessionSchema,
  },
  payLocalCheckout: {
    method: 'post',
    path: '/checkout/local/:id/pay',
    tag: 'checkout',
    summary: 'Pay a local checkout session with a test card (local payment provider only)',
    auth: 'user',
    params: checkoutSessionParamsSchema,
    body: localPaymentRequestSchema,
    response: checkoutSessionSchema,
  },
  listOrders: { method: 'get', path: '/photo-products-orders', tag: 'orders', summary: 'The shopper’s orders, newest first', auth: 'user', response: ordersResponseSchema },
  getOrder: { method: 'get', path: '/photo-products-orders/:id', tag: 'orders', summary: 'One order with its production status', auth: 'user', params: orderParamsSchema, response: orderSchema },
  stripeWebhook: {
    method: 'post',
    path: '/webhooks/stripe',
    tag: 'checkout',
    summary: 'Stripe webhook (checkout.session.completed, async_payment_succeeded/failed, expired; charge.refunded), signed with STRIPE_WEBHOOK_SECRET',
    auth: 'none',
    headers: { 'stripe-signature': 't=<unix>,v1=<hex HMAC-SHA256>' },
    response: webhookResponse,
  },
} as const satisfies Record<string, Endpoint>
