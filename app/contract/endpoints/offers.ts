import type { Endpoint } from '../endpoint'
import { offerClickQuerySchema, offerParamsSchema, partnerOfferSchema, partnerOffersResponseSchema } from '../offers'
import { z } from '../zod'

const tag = 'fmn'

export const offersApi = {
  listOffers: {
    method: 'get',
    path: '/fmn/offers',
    tag,
    summary: 'The partner offer wall: active offers in display order',
    auth: 'none',
    response: partnerOffersResponseSchema,
  },
  getOffer: {
    method: 'get',
    path: '/fmn/offers/:id',
    tag,
    summary: 'One active partner offer (404 for an unknown or retired one)',
    auth: 'none',
    params: offerParamsSchema,
    response: partnerOfferSchema,
  },
  clickOffer: {
    method: 'get',
    path: '/fmn/offers/:id/click',
    tag,
    summary: 'Record an outbound click (Fmn event) and 302 to the offer’s stored https URL — never to a URL from the request',
    auth: 'none',
    params: offerParamsSchema,
    query: offerClickQuerySchema,
    response: z.never(),
    status: 302,
  },
} as const satisfies Record<string, Endpoint>
