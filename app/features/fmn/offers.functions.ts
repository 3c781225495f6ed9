import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { offersApi } from '~/contract/endpoints/offers'
import { offerParamsSchema } from '~/contract/offers'
import { outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The active partner offers, in display order. A failure throws: the wall shows a retry. */
export const getOffers = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(async ({ context: { api } }) => (await api.call(offersApi.listOffers)).offers)

/** As an outcome, so the page can tell an unknown offer (404) from a failed load. */
export const getOffer = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(offerParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(offersApi.getOffer, { params: data })))

export const offersQuery = () => queryOptions({ queryKey: ['fmn-offers'], queryFn: () => getOffers(), staleTime: 60_000 })

export const offerQuery = (id: string) => queryOptions({ queryKey: ['fmn-offer', id], queryFn: () => getOffer({ data: { id } }), staleTime: 60_000 })

/** The contract's offer id rule, without pulling zod into the page: a malformed id is shown as not found. */
export const OFFER_ID = /^[a-z0-9][a-z0-9-]{0,63}$/

/** The offer's click URL with the tab's session id and the page it came from. */
export function outboundHref(clickUrl: string, sid: string | null | undefined, from: string) {
  const params = new URLSearchParams()
  if (sid) params.set('sid', sid)
  params.set('from', from)
  return `${clickUrl}${clickUrl.includes('?') ? '&' : '?'}${params.toString()}`
}
