import type { Endpoint } from '../endpoint'
import {
  egiftParamsSchema,
  egiftPurchaseRequestSchema,
  egiftPurchaseSchema,
  egiftPurchasesResponseSchema,
  egiftRedeemRequestSchema,
  egiftRedemptionSchema,
  outboxResponseSchema,
} from '../egifts'

const tag = 'egifts'

export const egiftsApi = {
  purchaseEgift: {
    method: 'post',
    path: '/egifts/purchases',
    tag,
    summary: 'Start buying an e-gift: amount, recipient, message, send date; answers the gift with checkoutUrl to pay at',
    auth: 'user',
    body: egiftPurchaseRequestSchema,
    response: egiftPurchaseSchema,
    status: 201,
  },
  listEgiftPurchases: {
    method: 'get',
    path: '/egifts/purchases',
    tag,
    summary: 'The e-gifts the shopper has bought, newest first',
    auth: 'user',
    response: egiftPurchasesResponseSchema,
  },
  getEgiftPurchase: {
    method: 'get',
    path: '/egifts/purchases/:id',
    tag,
    summary: 'One e-gift the shopper bought (asks the payment provider while it awaits payment); never the code',
    auth: 'user',
    params: egiftParamsSchema,
    response: egiftPurchaseSchema,
  },
  redeemEgift: {
    method: 'post',
    path: '/egifts/redeem',
    tag,
    summary: 'Redeem a gift code into store credit (once; 404 unknown, 409 already redeemed, 422 expired, 429 too many attempts)',
    auth: 'user',
    body: egiftRedeemRequestSchema,
    response: egiftRedemptionSchema,
  },
  demoOutbox: {
    method: 'get',
    path: '/demo/outbox',
    tag,
    summary: 'The newest e-mails sent to or about the signed-in shopper (demo mode only; none when signed out)',
    auth: 'none',
    response: outboxResponseSchema,
  },
} as const satisfies Record<string, Endpoint>
