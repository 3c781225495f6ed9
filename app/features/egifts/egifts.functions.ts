import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { egiftParamsSchema } from '~/contract/egifts'
import { egiftsApi } from '~/contract/endpoints/egifts'
import { z } from '~/contract/zod'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The gifts the shopper has bought, newest first, or null when signed out. */
export const getEgiftPurchases = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(async () => (await api.call(egiftsApi.listEgiftPurchases)).purchases))

/** As an outcome: the return page tells a gift that is not this shopper's (404) from signed out (401). */
export const getEgiftPurchase = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .validator(egiftParamsSchema)
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(egiftsApi.getEgiftPurchase, { params: data })))

/**
 * The form's fields go to the API as typed: it owns the rules and answers each refusal with the field
 * it concerns (400 with issues), so this only bounds the sizes.
 */
export const buyEgift = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(
    z.object({
      amountCents: z.number().int().min(0).max(100_000_000),
      recipientName: z.string().max(500),
      recipientEmail: z.string().max(500),
      senderName: z.string().max(500),
      message: z.string().max(5000),
      sendOn: z.string().max(32).nullable(),
    }),
  )
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(egiftsApi.purchaseEgift, { body: data })))

/** Refusals (unknown 404, already redeemed 409, expired 422, 429) come back as an outcome. */
export const redeemEgiftCode = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(z.object({ code: z.string().max(200) }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(egiftsApi.redeemEgift, { body: data })))

export const egiftPurchasesQuery = () => queryOptions({ queryKey: ['egifts', 'purchases'], queryFn: () => getEgiftPurchases(), staleTime: 5_000 })

export const egiftPurchaseQuery = (id: string) =>
  queryOptions({ queryKey: ['egifts', 'purchase', id], queryFn: () => getEgiftPurchase({ data: { id } }), staleTime: 0 })
