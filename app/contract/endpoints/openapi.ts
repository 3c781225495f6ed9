import type { Endpoint } from '../endpoint'
import { z } from '../zod'

export const openApiApi = {
  openApiDocument: {
    method: 'get',
    path: '/openapi.json',
    tag: 'meta',
    summary: 'This document: every /v1 operation, generated from the schemas that validate it',
    auth: 'none',
    response: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
  },
} as const satisfies Record<string, Endpoint>
