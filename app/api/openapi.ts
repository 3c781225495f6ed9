import type { Endpoint } from '../contract/endpoint'
import { albumApi } from '../contract/endpoints/album'
import { analyticsApi } from '../contract/endpoints/analytics'
import { bundlesApi } from '../contract/endpoints/bundles'
import { cartApi } from '../contract/endpoints/cart'
import { demoApi } from '../contract/endpoints/demo'
import { designSharesApi } from '../contract/endpoints/design-shares'
import { egiftsApi } from '../contract/endpoints/egifts'
import { growthApi } from '../contract/endpoints/growth'
import { addressesApi } from '../contract/endpoints/addresses'
import { jobsApi } from '../contract/endpoints/jobs'
import { mediaApi } from '../contract/endpoints/media'
import { offersApi } from '../contract/endpoints/offers'
import { openApiApi } from '../contract/endpoints/openapi'
import { photoProductsApi } from '../contract/endpoints/photo-products'
import { printifyApi } from '../contract/endpoints/printify'
import { referralApi } from '../contract/endpoints/referral'
import { savedDesignsApi } from '../contract/endpoints/saved-designs'
import { smokescreensApi } from '../contract/endpoints/smokescreens'
import { apiErrorSchema } from '../contract/errors'
import { IDEMPOTENCY_KEY_HEADER } from '../contract/headers'
import { isWebhookPath } from './idempotency'
import { z } from '../contract/zod'
import { descriptorOf, endpointRegistry, type EndpointSpec } from './endpoint'

const toJson = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' })

const groups: Record<string, Endpoint>[] = [
  addressesApi,
  albumApi,
  analyticsApi,
  bundlesApi,
  cartApi,
  demoApi,
  designSharesApi,
  egiftsApi,
  growthApi,
  jobsApi,
  mediaApi,
  offersApi,
  openApiApi,
  photoProductsApi,
  printifyApi,
  referralApi,
  savedDesignsApi,
  smokescreensApi,
]

/** Each descriptor's operationId is its name in its group: `cartApi.addCartItem` is `addCartItem`. */
const operationIds = new Map<Endpoint, string>(groups.flatMap((group) => Object.entries(group).map(([name, descriptor]) => [descriptor, name] as const)))

function operationIdOf(spec: EndpointSpec): string {
  const id = operationIds.get(descriptorOf(spec))
  if (!id) throw new Error(`${spec.method.toUpperCase()} ${spec.path} is no descriptor of app/contract/endpoints listed in app/api/openapi.ts`)
  return id
}

const ERROR_RESPONSE = { $ref: '#/components/responses/Error' }

/** One answer of an operation: a redirect carries a Location, a 304 nothing, a file its media types, the rest the response schema. */
function answer(spec: EndpointSpec, status: number, description: string, json: () => unknown) {
  if (status === 304) return { description }
  if (status >= 300 && status < 400) return { description, headers: { Location: { description: 'Where to go', schema: { type: 'string' } } } }
  if (spec.produces) return { description, content: Object.fromEntries(spec.produces.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) }
  return { description, content: { 'application/json': { schema: json() } } }
}

function responsesOf(spec: EndpointSpec) {
  let schema: unknown
  const json = () => (schema ??= toJson(spec.response, 'output'))
  const status = spec.status ?? 200
  return {
    [String(status)]: answer(spec, status, status >= 300 && status < 400 ? 'Redirect' : 'OK', json),
    ...Object.fromEntries(Object.entries(spec.alsoAnswers ?? {}).map(([other, description]) => [other, answer(spec, Number(other), description, json)])),
    '4XX': ERROR_RESPONSE,
    '5XX': ERROR_RESPONSE,
  }
}

/** /v1/openapi.json, generated from the same zod schemas that validate each request. */
export function buildOpenApiDocument(publicUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const spec of endpointRegistry) {
    const path = spec.path.replace(/:([A-Za-z]+)/g, '{$1}')
    const parameters: unknown[] = []
    for (const [where, schema] of [
      ['path', spec.params],
      ['query', spec.query],
    ] as const) {
      if (!schema) continue
      const json = toJson(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] }
      for (const [name, s] of Object.entries(json.properties ?? {})) {
        parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: s })
      }
    }
    for (const [name, description] of Object.entries(spec.headers ?? {})) {
      parameters.push({ name, in: 'header', required: false, description, schema: { type: 'string' } })
    }
    if (spec.method !== 'get' && !isWebhookPath(spec.path)) {
      parameters.push({
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: false,
        description: 'Repeat a write safely: the same key answers the first answer (1–255 printable characters, kept 24 h)',
        schema: { type: 'string', maxLength: 255 },
      })
    }
    const operationId = operationIdOf(spec)
    paths[path] ??= {}
    const operation = {
      operationId,
      summary: spec.summary,
      tags: [spec.tag],
      // A public operation says so (an empty list): without it, no security at all would read as undocumented.
      security: spec.auth === 'user' ? [{ sessionCookie: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJson(spec.body, 'input') } } } } : {}),
      responses: responsesOf(spec),
    }
    paths[path][spec.method] = operation
    // SPEC.md §7's spelling (a trailing slash) answers the same, so it is documented too, as its own operation.
    if (spec.specSpelling) {
      paths[spec.specSpelling] = {
        [spec.method]: {
          ...operation,
          operationId: `${operationId}AsSpecified`,
          summary: `${spec.summary} (the path as SPEC.md §7 spells it, with a trailing slash; the same answer)`,
        },
      }
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Keepsake album API', version: '1.0.0' },
    servers: [{ url: `${publicUrl}/v1` }],
    components: {
      securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'keepsake_session' } },
      schemas: { Error: toJson(apiErrorSchema, 'output') },
      responses: {
        Error: {
          description: 'The request was refused (4xx) or failed (5xx); `code` says why (ARCHITECTURE.md "Errors and bad input")',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
    paths,
  }
}
