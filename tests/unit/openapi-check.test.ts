import { describe, expect, it } from 'vitest'
import { openApiCheck, type Answer, type OpenApiDocument } from '../support/openapi-check'

/** The check every API test's answers go through (tests/support/openapi-check.ts) refuses what the document does not declare. */
const error = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
const doc: OpenApiDocument = {
  servers: [{ url: 'http://localhost:3000/v1' }],
  components: {
    schemas: {
      Error: {
        type: 'object',
        properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] } },
        required: ['error'],
      },
    },
    responses: { Error: error },
  },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        responses: {
          '200': {
            description: 'OK',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    note: { type: 'string', nullable: true },
                    count: { type: 'integer', minimum: 0, exclusiveMinimum: true },
                  },
                  required: ['id', 'note', 'count'],
                },
              },
            },
          },
          '4XX': { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/things/{id}/image': {
      get: {
        operationId: 'thingImage',
        responses: {
          '200': { description: 'OK', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } },
          '304': { description: 'Not modified' },
        },
      },
    },
  },
}

const id = '7d2c3f5a-1e8b-4c6d-8f0a-2b3c4d5e0001'
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  text: JSON.stringify(body),
})
const check = openApiCheck(doc)
const at = (path: string) => `http://localhost:3000/v1${path}`

describe('the OpenAPI answer check', () => {
  it('passes answers the document declares', () => {
    expect(() => check('GET', at(`/things/${id}`), json(200, { id, note: null, count: 1 }))).not.toThrow()
    expect(() => check('GET', at(`/things/${id}`), json(404, { error: { code: 'not_found', message: 'No' } }))).not.toThrow()
    expect(() => check('GET', at(`/things/${id}/image`), { status: 200, headers: new Headers({ 'content-type': 'image/jpeg' }), text: null })).not.toThrow()
    expect(() => check('GET', at(`/things/${id}/image`), { status: 304, headers: new Headers({ 'content-type': 'image/jpeg' }), text: '' })).not.toThrow()
    expect(() => check('GET', at('/nowhere'), json(404, { error: { code: 'not_found', message: 'No such endpoint' } }))).not.toThrow()
    expect(() => check('GET', at(`/things/${id}/`), { status: 308, headers: new Headers({ location: `/v1/things/${id}` }), text: '' })).not.toThrow()
    expect(() => check('GET', at('/nowhere/'), { status: 308, headers: new Headers({ location: '/v1/nowhere' }), text: '' })).not.toThrow()
  })

  it('refuses an undeclared status, a wrong content type, a body off its schema, and a path no operation has', () => {
    expect(() => check('GET', at(`/things/${id}`), json(201, { id, note: null, count: 1 }))).toThrow(/getThing: status 201 is not declared/)
    expect(() => check('GET', at(`/things/${id}/image`), json(200, {}))).toThrow(/content type "application\/json" is not declared/)
    expect(() => check('GET', at(`/things/${id}`), json(200, { id: 'nope', note: null, count: 1 }))).toThrow(/body\/id must match format "uuid"/)
    expect(() => check('GET', at(`/things/${id}`), json(200, { id, note: 3, count: 1 }))).toThrow(/body\/note/)
    expect(() => check('GET', at(`/things/${id}`), json(200, { id, note: null, count: 0 }))).toThrow(/body\/count must be > 0/)
    expect(() => check('GET', at(`/things/${id}`), json(400, { message: 'bare' }))).toThrow(/must have required property 'error'/)
    expect(() => check('POST', at(`/things/${id}`), json(200, {}))).toThrow(/no operation has this path, yet it answered 200/)
    expect(() => check('GET', at('/nowhere/'), { status: 308, headers: new Headers({ location: '/v1/elsewhere' }), text: '' })).toThrow(
      /which no operation has/,
    )
  })
})
