import { Hono } from 'hono'
import { offerClickQuerySchema, offerParamsSchema, partnerOfferSchema, partnerOffersResponseSchema } from '../../contract/offers'
import { z } from '../../contract/zod'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { clickOffer, getOffer, listOffers } from '../services/offers'

export const offerRoutes = new Hono<ApiEnv>()
const tag = 'fmn'

endpoint(offerRoutes, { method: 'get', path: '/fmn/offers', tag, summary: 'The partner offer wall: active offers in display order', auth: 'none', response: partnerOffersResponseSchema }, (_input, c) =>
  listOffers(c.get('deps').db),
)

endpoint(
  offerRoutes,
  { method: 'get', path: '/fmn/offers/:id', tag, summary: 'One active partner offer (404 for an unknown or retired one)', auth: 'none', params: offerParamsSchema, response: partnerOfferSchema },
  ({ params }, c) => getOffer(c.get('deps').db, params.id),
)

endpoint(
  offerRoutes,
  {
    method: 'get',
    path: '/fmn/offers/:id/click',
    tag,
    summary: 'Record an outbound click (Fmn event) and 302 to the offer’s stored https URL — never to a URL from the request',
    auth: 'none',
    params: offerParamsSchema,
    query: offerClickQuerySchema,
    response: z.never(),
  },
  async ({ params, query, user }, c) => {
    const target = await clickOffer(c.get('deps'), { id: params.id, user, sid: query.sid, from: query.from, clientAddress: currentClientAddress() })
    return c.redirect(target, 302)
  },
)
