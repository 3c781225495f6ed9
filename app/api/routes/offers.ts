import { offersApi } from '../../contract/endpoints/offers'
import { Hono } from 'hono'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { clickOffer, getOffer, listOffers } from '../services/offers'

export const offerRoutes = new Hono<ApiEnv>()

endpoint(offerRoutes, offersApi.listOffers, (_input, c) => listOffers(c.get('deps').db))

endpoint(offerRoutes, offersApi.getOffer, ({ params }, c) => getOffer(c.get('deps').db, params.id))

endpoint(offerRoutes, offersApi.clickOffer, async ({ params, query, user }, c) => {
  const target = await clickOffer(c.get('deps'), { id: params.id, user, sid: query.sid, from: query.from, clientAddress: currentClientAddress() })
  return c.redirect(target, 302)
})
