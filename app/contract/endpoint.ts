import type { z } from './zod'

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

/**
 * One /v1 endpoint, written once: the API registers its handler against it (app/api/endpoint.ts) and
 * server functions call it through the API client (`api.call(descriptor, input)`), so a path or a
 * schema cannot drift between the two sides. `{product}` in a path is the configured product slug.
 */
export type Endpoint = {
  method: Method
  /** Hono path relative to /v1, e.g. '/photo-products/:id' or '/{product}-photos'. */
  path: string
  summary: string
  tag: string
  auth: 'user' | 'none'
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  /** Extra request headers the endpoint reads, for the OpenAPI document. */
  headers?: Readonly<Record<string, string>>
  response: z.ZodType
  /** The success status; a redirect (302) answers no body, only a Location. */
  status?: 200 | 201 | 202 | 302
  /** Other statuses a success can answer, for the OpenAPI document: a 2xx carries the same body as `status`, a 304 none. */
  alsoAnswers?: Readonly<Partial<Record<200 | 304, string>>>
  /**
   * The path as SPEC.md §7 spells it, when that is `path` with a trailing slash: answered the same (not sent on with
   * a 308 as other slashed paths are) and documented beside `path`, so a client calling the spec's path gets the answer.
   */
  specSpelling?: string
  /** The media types of a file answer, instead of JSON (the API answers a `Response` with one of them). */
  produces?: readonly string[]
}

type Part<E, K extends 'params' | 'query' | 'body'> = E extends { [P in K]: infer S extends z.ZodType } ? { [P in K]: z.input<S> } : { [P in K]?: never }

/** What a caller hands `api.call` for an endpoint: exactly the parts it declares, typed from its schemas. */
export type CallInput<E extends Endpoint> = Part<E, 'params'> & Part<E, 'query'> & Part<E, 'body'>

export type EndpointResponse<E extends Endpoint> = z.output<E['response']>

/** Whether an endpoint needs any input at all (when not, `api.call(endpoint)` is enough). */
export type NeedsInput<E extends Endpoint> = E extends { params: z.ZodType } | { query: z.ZodType } | { body: z.ZodType } ? true : false

/** The path with the product slug in place, still carrying its `:param` placeholders (the API's route). */
export const pathForProduct = (path: string, productSlug: string) => path.replaceAll('{product}', productSlug)

/** The concrete path of one call: the product slug and each `:param` filled in, encoded. */
export function concretePath(path: string, productSlug: string, params: Record<string, unknown> | undefined): string {
  return pathForProduct(path, productSlug).replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name]
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`)
    return encodeURIComponent(String(value))
  })
}
