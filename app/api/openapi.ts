import { apiErrorSchema } from '../contract/errors'
import { IDEMPOTENCY_KEY_HEADER } from '../contract/headers'
import { z } from '../contract/zod'
import { endpointRegistry } from './endpoint'

const toJson = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' })

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
    if (spec.method !== 'get') {
      parameters.push({
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: false,
        description: 'Repeat a write safely: the same key answers the first answer (1–255 printable characters, kept 24 h)',
        schema: { type: 'string', maxLength: 255 },
      })
    }
    paths[path] ??= {}
    paths[path][spec.method] = {
      summary: spec.summary,
      tags: [spec.tag],
      ...(spec.auth === 'user' ? { security: [{ sessionCookie: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: toJson(spec.body, 'input') } } } } : {}),
      responses: {
        [String(spec.status ?? 200)]: { description: 'OK', content: { 'application/json': { schema: toJson(spec.response, 'output') } } },
        default: { description: 'Error', content: { 'application/json': { schema: toJson(apiErrorSchema, 'output') } } },
      },
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Keepsake album API', version: '1.0.0' },
    servers: [{ url: `${publicUrl}/v1` }],
    components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'keepsake_session' } } },
    paths,
  }
}
