import { DrizzleQueryError } from 'drizzle-orm/errors'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { AppError, dependencyUnavailable, OUTAGE_RETRY_AFTER_MS } from '../../app/api/errors'
import { isDependencyOutage, outageAnswer } from '../../app/api/outages'

/** A network error as node raises it. */
const networkError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -1, syscall: 'connect' })

/** PostgreSQL's error as node-postgres raises it: a DatabaseError with a SQLSTATE and a severity. */
function serverError(code: string, message: string) {
  const error = new pg.DatabaseError(message, message.length, 'error')
  error.code = code
  error.severity = 'FATAL'
  return error
}

/** What drizzle throws for a query whose driver failed. */
const failedQuery = (cause: Error) => new DrizzleQueryError('select 1', [], cause)

describe('isDependencyOutage and outageAnswer (issue 43, item 6; decision 073)', () => {
  it.each([
    ['a refused connection', networkError('ECONNREFUSED')],
    ['a reset connection', networkError('ECONNRESET')],
    ['a connection that timed out', networkError('ETIMEDOUT')],
    ['a server that ended the connection', new Error('Connection terminated unexpectedly')],
    ['a connection that never completed its start-up', new Error('Connection terminated due to connection timeout')],
    ['no connection free in time', new Error('timeout exceeded when trying to connect')],
    ['a query past its deadline', new Error('Query read timeout')],
    ['a client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
    ['an administrator stopping the server (57P01)', serverError('57P01', 'terminating connection due to administrator command')],
    ['a crashed server (57P02)', serverError('57P02', 'terminating connection due to crash of another server process')],
    ['a server still starting (57P03)', serverError('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', serverError('08006', 'connection failure')],
    ['too many connections (53300)', serverError('53300', 'sorry, too many clients already')],
    ['the statement deadline (57014)', serverError('57014', 'canceling statement due to statement timeout')],
  ])('counts %s as an outage, bare or wrapped by drizzle', (_what, error) => {
    expect(isDependencyOutage(error)).toBe(true)
    expect(isDependencyOutage(failedQuery(error))).toBe(true)
  })

  it('names the database when the error says it came from it, else a service in general', () => {
    expect(outageAnswer(failedQuery(networkError('ECONNRESET')))?.message).toMatch(/^The store database is not answering/)
    expect(outageAnswer(serverError('57P01', 'terminating connection due to administrator command'))?.message).toMatch(/^The store database/)
    expect(outageAnswer(new Error('Connection terminated unexpectedly'))?.message).toMatch(/^The store database/)
    expect(outageAnswer(networkError('ECONNREFUSED'))?.message).toMatch(/^A service the store relies on is not answering/)
    // fetch's failure: a TypeError whose cause is the network's.
    expect(outageAnswer(new TypeError('fetch failed', { cause: networkError('ECONNREFUSED') }))?.message).toMatch(/^A service/)
  })

  it("answers 503 'unavailable' with the outage's Retry-After", () => {
    const answer = outageAnswer(failedQuery(new Error('Connection terminated unexpectedly')))
    expect(answer).toBeInstanceOf(AppError)
    expect(answer?.code).toBe('unavailable')
    expect(answer?.retryAfterMs).toBe(OUTAGE_RETRY_AFTER_MS)
  })

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation', serverError('23505', 'duplicate key value violates unique constraint "users_email_key"')],
    ['a syntax error', failedQuery(serverError('42601', 'syntax error at or near "selec"'))],
    ['a serialization failure', failedQuery(serverError('40001', 'could not serialize access'))],
    ['a SQLSTATE-like code on an error that is not the server’s', Object.assign(new Error('x'), { code: '57P01' })],
    ['our own refusal', new AppError('conflict', 'A request with this Idempotency-Key is still being processed')],
    ['a refusal that already says unavailable', dependencyUnavailable('Photo storage')],
    ['something that is no error', 'ECONNREFUSED'],
  ])('leaves %s alone', (_what, error) => {
    expect(isDependencyOutage(error)).toBe(false)
    expect(outageAnswer(error)).toBeNull()
  })
})
