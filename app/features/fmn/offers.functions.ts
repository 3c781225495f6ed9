import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { offerParamsSchema, partnerOfferSchema, partnerOffersResponseSchema } from '~/contract/offers'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'
import { outcomeOf } from '../../lib/api-outcome.server'

/** GET /v1/fmn/offers: the active partner offers, in display order. A failure throws: the wall shows a retry. */
export const getOffers = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(async ({ context }) => (await apiForRequest({ timezone: context.timezone }).call('/fmn/offers', { schema: partnerOffersResponseSchema })).offers)

/** GET /v1/fmn/offers/{id} as an outcome, so the page can tell an unknown offer (404) from a failed load. */
export const getOffer = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(offerParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`/fmn/offers/${data.id}`, { schema: partnerOfferSchema })),
  )

export const offersQuery = () => queryOptions({ queryKey: ['fmn-offers'], queryFn: () => getOffers(), staleTime: 60_000 })

export const offerQuery = (id: string) =>
  queryOptions({ queryKey: ['fmn-offer', id], queryFn: () => getOffer({ data: { id } }), staleTime: 60_000 })

/** The contract's offer id rule, without pulling zod into the page: a malformed id is shown as not found. */
export const OFFER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/

/** The offer's click URL with the tab's session id and the page it came from. */
export function outboundHref(clickUrl: string, sid: string | null | undefined, from: string) {
  const params = new URLSearchParams()
  if (sid) params.set('sid', sid)
  params.set('from', from)
  return `${clickUrl}${clickUrl.includes('?') ? '&' : '?'}${params.toString()}`
}
