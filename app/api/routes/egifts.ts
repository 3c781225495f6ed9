import { Hono } from 'hono'
import {
  egiftParamsSchema,
  egiftPurchaseRequestSchema,
  egiftPurchaseSchema,
  egiftPurchasesResponseSchema,
  egiftRedeemRequestSchema,
  egiftRedemptionSchema,
  outboxResponseSchema,
} from '../../contract/egifts'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { createEgiftPurchase, getEgiftPurchase, listEgiftPurchases, redeemEgift } from '../services/egifts'
import { listOutbox } from '../services/mail'

/** E-gifts (issue 7): buy one (paid through the checkout provider), follow it, redeem a code into store credit. */
export const egiftRoutes = new Hono<ApiEnv>()
const tag = 'egifts'

endpoint(
  egiftRoutes,
  {
    method: 'post',
    path: '/egifts/purchases',
    tag,
    summary: 'Start buying an e-gift: amount, recipient, message, send date; answers the gift with checkoutUrl to pay at',
    auth: 'user',
    body: egiftPurchaseRequestSchema,
    response: egiftPurchaseSchema,
    status: 201,
  },
  ({ user, body }, c) => createEgiftPurchase(c.get('deps'), user, body, c.get('timezone')),
)

endpoint(
  egiftRoutes,
  { method: 'get', path: '/egifts/purchases', tag, summary: 'The e-gifts the shopper has bought, newest first', auth: 'user', response: egiftPurchasesResponseSchema },
  ({ user }, c) => listEgiftPurchases(c.get('deps').db, user),
)

endpoint(
  egiftRoutes,
  {
    method: 'get',
    path: '/egifts/purchases/:id',
    tag,
    summary: 'One e-gift the shopper bought (asks the payment provider while it awaits payment); never the code',
    auth: 'user',
    params: egiftParamsSchema,
    response: egiftPurchaseSchema,
  },
  ({ user, params }, c) => getEgiftPurchase(c.get('deps'), user, params.id),
)

endpoint(
  egiftRoutes,
  {
    method: 'post',
    path: '/egifts/redeem',
    tag,
    summary: 'Redeem a gift code into store credit (once; 404 unknown, 409 already redeemed, 422 expired, 429 too many attempts)',
    auth: 'user',
    body: egiftRedeemRequestSchema,
    response: egiftRedemptionSchema,
  },
  ({ user, body }, c) => redeemEgift(c.get('deps'), user, body.code, currentClientAddress()),
)

endpoint(
  egiftRoutes,
  {
    method: 'get',
    path: '/demo/outbox',
    tag,
    summary: 'The newest e-mails sent to or about the signed-in shopper (demo mode only; none when signed out)',
    auth: 'none',
    response: outboxResponseSchema,
  },
  ({ user }, c) => {
    if (!c.get('deps').config.demoMode) throw new AppError('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`)
    return listOutbox(c.get('deps').db, user)
  },
)
