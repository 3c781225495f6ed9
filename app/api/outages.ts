import { DrizzleQueryError } from 'drizzle-orm/errors'
import { AppError, dependencyUnavailable } from './errors'

/**
 * Which failures are a dependency's outage rather than our bug (issue 43, item 6; decision 073): the API answers
 * them 503 'unavailable' with Retry-After, never 500. A failure is judged by itself and by every error it wraps
 * (`cause`: drizzle's "Failed query" carries the driver's error there).
 */

/** Node's words for a peer that is gone, refuses, resets or never answers. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/**
 * PostgreSQL's SQLSTATEs for a server that is going or not there: class 08 (connection exception), 57P01–57P03
 * (terminated by an administrator, a crash, cannot connect now), 53300 (too many connections) and 57014 (a statement
 * cancelled: statement_timeout, our query deadline).
 */
const isOutageSqlState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300', '57014'].includes(code)

/** node-postgres and pg-pool say these with no code: a connection that ended or never came, a query past its deadline. */
const PG_OUTAGE_MESSAGE = /^Connection terminated|^timeout exceeded when trying to connect|^Query read timeout|is not queryable/

const PG_SQLSTATE = /^[0-9A-Z]{5}$/

type Finding = 'database' | 'network'

function findingOf(error: unknown, depth = 0): Finding | null {
  if (depth > 5 || typeof error !== 'object' || error === null) return null
  // Our own refusals are answered as they are (a dependency's helper may already have said 'unavailable').
  if (error instanceof AppError) return null
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown }
  const text = typeof message === 'string' ? message : ''
  if (typeof code === 'string' && PG_SQLSTATE.test(code) && isOutageSqlState(code) && 'severity' in error) return 'database'
  if (PG_OUTAGE_MESSAGE.test(text)) return 'database'
  const inner = findingOf(cause, depth + 1)
  // A query that failed because its connection did: drizzle names the query, the driver the network.
  if (inner) return error instanceof DrizzleQueryError ? 'database' : inner
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'network'
  if (error instanceof AggregateError) {
    for (const each of error.errors) {
      const found = findingOf(each, depth + 1)
      if (found) return found
    }
  }
  return null
}

export const isDependencyOutage = (error: unknown) => findingOf(error) !== null

/** The 503 a dependency's outage is answered with, or null when `error` is none. */
export function outageAnswer(error: unknown): AppError | null {
  const found = findingOf(error)
  if (!found) return null
  return dependencyUnavailable(found === 'database' ? 'The store database' : 'A service the store relies on')
}
