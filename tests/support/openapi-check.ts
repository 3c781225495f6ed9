import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'

/**
 * Holds every answer an API test receives to /v1/openapi.json (decision 041): the operation the request
 * reached must declare the status, the content type, and — for JSON — a schema the body satisfies. A path
 * no operation has may only be refused with the API's error, or sent (308) to a path one has or to itself
 * without its trailing slash.
 */
type Schema = Record<string, unknown>
type Declared = { $ref?: string; description?: string; content?: Record<string, { schema?: Schema }> }
type Operation = { operationId: string; responses: Record<string, Declared> }
export type OpenApiDocument = { servers: { url: string }[]; paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> }

/** What the check needs of an answer: its status, headers, and its body text when it is JSON or a redirect's. */
export type Answer = { status: number; headers: Headers; text: string | null }

/** OpenAPI 3.0's schema dialect as JSON Schema: `nullable` as a null alternative, boolean `exclusiveMinimum`/`Maximum` as numbers. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema)
  if (!schema || typeof schema !== 'object') return schema
  const { nullable, ...rest } = schema as Schema
  const out: Schema = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, key === 'enum' || key === 'default' ? value : toJsonSchema(value)]))
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound]
      delete out[bound]
    } else if (out[flag] === false) delete out[flag]
  }
  return nullable === true ? { anyOf: [out, { type: 'null' }] } : out
}

const mediaType = (headers: Headers) => (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()

export function openApiCheck(doc: OpenApiDocument) {
  const base = new URL(doc.servers[0]!.url).pathname.replace(/\/$/, '')
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addFormat('binary', true)
  const compiled = new WeakMap<object, ValidateFunction>()

  const resolve = <T>(value: T & { $ref?: string }): T => {
    if (!value.$ref) return value
    const found = value.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], doc)
    if (!found) throw new Error(`${value.$ref} is not in the document`)
    return resolve(found as T & { $ref?: string })
  }
  const validatorOf = (schema: Schema) => {
    let validate = compiled.get(schema)
    if (!validate) {
      // Within a schema, a $ref names the document (only components are referred to).
      const withRefs = JSON.parse(JSON.stringify(schema), (_, value: unknown) =>
        value && typeof value === 'object' && '$ref' in value ? resolve(value as { $ref: string }) : value,
      ) as Schema
      validate = ajv.compile(toJsonSchema(withRefs) as Schema)
      compiled.set(schema, validate)
    }
    return validate
  }

  const routes = Object.entries(doc.paths).flatMap(([path, operations]) => {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`)
    return Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, pattern, operation }))
  })
  const operationsFor = (method: string, pathname: string) => {
    const asked = method === 'HEAD' ? 'GET' : method
    return routes.filter((route) => route.method === asked && route.pattern.test(pathname.slice(base.length)))
  }

  /** Problems of one answer against one declared response (none: an empty list). */
  function problemsWith(declaredResponse: Declared | undefined, answer: Answer, method: string): string[] {
    if (!declaredResponse) return [`status ${answer.status} is not declared`]
    const declared = resolve(declaredResponse)
    if (!declared.content) return answer.text ? [`status ${answer.status} declares no body, but one came: ${answer.text.slice(0, 200)}`] : []
    const type = mediaType(answer.headers)
    const media = declared.content[type]
    if (!media) return [`content type "${type}" is not declared for ${answer.status} (${Object.keys(declared.content).join(', ')})`]
    if (type !== 'application/json' || !media.schema || method === 'HEAD') return []
    if (answer.text === null) return ['a JSON answer whose body was not read']
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      return [`the body is not JSON: ${answer.text.slice(0, 200)}`]
    }
    const validate = validatorOf(media.schema)
    if (validate(body)) return []
    return (validate.errors ?? []).slice(0, 5).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)
  }

  /** The response an operation declares for a status: its own, its range's (4XX), or its default. */
  const declaredFor = (operation: Operation, status: number) =>
    operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default

  const errorResponse = { $ref: '#/components/responses/Error' }

  /** Throws, naming the request and every mismatch, when the answer is not what the document declares. */
  return function check(method: string, url: string, answer: Answer) {
    const { pathname } = new URL(url)
    if (!pathname.startsWith(`${base}/`) && pathname !== base) return
    const candidates = operationsFor(method, pathname)
    let problems: string[]
    if (candidates.length === 0) {
      const location = answer.headers.get('location')
      if (answer.status === 308 && location) {
        // The API sends a path spelled with a trailing slash to the one without (decision 041), wherever that leads.
        const target = new URL(location, url).pathname
        const normalised = target === pathname.replace(/\/+$/, '')
        problems = normalised || operationsFor(method, target).length ? [] : [`sent to ${target}, which no operation has`]
      } else if (answer.status >= 400) {
        problems = problemsWith(errorResponse, answer, method)
      } else {
        problems = [`no operation has this path, yet it answered ${answer.status}`]
      }
    } else {
      const each = candidates.map(({ operation }) =>
        problemsWith(declaredFor(operation, answer.status), answer, method).map((problem) => `${operation.operationId}: ${problem}`),
      )
      problems = each.some((list) => list.length === 0) ? [] : each.flat()
    }
    if (problems.length) throw new Error(`${method} ${pathname} answered other than /v1/openapi.json declares:\n  ${problems.join('\n  ')}`)
  }
}

/** Reads what `check` needs from a response without consuming it: the text of a JSON or redirect body. */
export async function answerOf(response: Response): Promise<Answer> {
  const readable = mediaType(response.headers) === 'application/json' || (response.status >= 300 && response.status < 400)
  return { status: response.status, headers: response.headers, text: readable ? await response.clone().text() : null }
}
