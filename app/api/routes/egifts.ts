import { egiftsApi } from '../../contract/endpoints/egifts'
import { Hono } from 'hono'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { createEgiftPurchase, getEgiftPurchase, listEgiftPurchases, redeemEgift } from '../services/egifts'
import { listOutbox } from '../services/mail'

/** E-gifts (issue 7): buy one (paid through the checkout provider), follow it, redeem a code into store credit. */
export const egiftRoutes = new Hono<ApiEnv>()

endpoint(egiftRoutes, egiftsApi.purchaseEgift, ({ user, body }, c) => createEgiftPurchase(c.get('deps'), user, body, c.get('timezone')))

endpoint(egiftRoutes, egiftsApi.listEgiftPurchases, ({ user }, c) => listEgiftPurchases(c.get('deps').db, user))

endpoint(egiftRoutes, egiftsApi.getEgiftPurchase, ({ user, params }, c) => getEgiftPurchase(c.get('deps'), user, params.id))

endpoint(egiftRoutes, egiftsApi.redeemEgift, ({ user, body }, c) => redeemEgift(c.get('deps'), user, body.code, currentClientAddress()))

endpoint(egiftRoutes, egiftsApi.demoOutbox, ({ user }, c) => {
  if (!c.get('deps').config.demoMode) throw new AppError('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`)
  return listOutbox(c.get('deps').db, user)
})
