import { z } from './zod'

/** ARCHITECTURE.md "Errors and bad input": every /v1 error has this shape. */
export const errorCodes = [
  'validation_failed',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'payment_declined',
  'payload_too_large',
  'unsupported_media_type',
  'rule_broken',
  'rate_limited',
  'provider_failed',
  'maintenance',
  'unavailable',
  'internal',
] as const
export type ErrorCode = (typeof errorCodes)[number]

export const errorStatus: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payment_declined: 402,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rule_broken: 422,
  rate_limited: 429,
  provider_failed: 502,
  maintenance: 503,
  unavailable: 503,
  internal: 500,
}

export const validationIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
})

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    issues: z.array(validationIssueSchema).optional(),
    requestId: z.string().optional(),
  }),
})
export type ApiErrorBody = z.infer<typeof apiErrorSchema>
