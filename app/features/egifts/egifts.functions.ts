import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { egiftParamsSchema, egiftPurchaseSchema, egiftPurchasesResponseSchema, egiftRedemptionSchema } from '~/contract/egifts'
import { z } from '~/contract/zod'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiForRequest } from '~/lib/api-call.server'
import { timezoneMiddleware } from '~/lib/timezone.middleware'

/** GET /v1/egifts/purchases: the gifts the shopper has bought, newest first, or null when signed out. */
export const getEgiftPurchases = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .handler(({ context }) =>
    orSignedOut(async () => (await apiForRequest({ timezone: context.timezone }).call('/egifts/purchases', { schema: egiftPurchasesResponseSchema })).purchases),
  )

/** GET /v1/egifts/purchases/{id} as an outcome: the return page tells a gift that is not this shopper's (404) from signed out (401). */
export const getEgiftPurchase = createServerFn({ method: 'GET' })
  .middleware([timezoneMiddleware])
  .validator(egiftParamsSchema)
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call(`/egifts/purchases/${data.id}`, { schema: egiftPurchaseSchema })),
  )

/**
 * POST /v1/egifts/purchases. The form's fields go to the API as typed: it owns the rules and answers
 * each refusal with the field it concerns (400 with issues), so this only bounds the sizes.
 */
export const buyEgift = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
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
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call('/egifts/purchases', { method: 'POST', body: data, schema: egiftPurchaseSchema })),
  )

/** POST /v1/egifts/redeem: refusals (unknown 404, already redeemed 409, expired 422, 429) come back as an outcome. */
export const redeemEgiftCode = createServerFn({ method: 'POST' })
  .middleware([timezoneMiddleware])
  .validator(z.object({ code: z.string().max(200) }))
  .handler(({ data, context }) =>
    outcomeOf(() => apiForRequest({ timezone: context.timezone }).call('/egifts/redeem', { method: 'POST', body: data, schema: egiftRedemptionSchema })),
  )

export const egiftPurchasesQuery = () => queryOptions({ queryKey: ['egifts', 'purchases'], queryFn: () => getEgiftPurchases(), staleTime: 5_000 })

export const egiftPurchaseQuery = (id: string) =>
  queryOptions({ queryKey: ['egifts', 'purchase', id], queryFn: () => getEgiftPurchase({ data: { id } }), staleTime: 0 })
