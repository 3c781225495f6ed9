import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../app.config'

describe('DATABASE_CONNECT_TIMEOUT_MS and DATABASE_QUERY_TIMEOUT_MS (decision 073)', () => {
  it('default to 5 s to connect and 15 s a query', () => {
    expect(loadConfig({}).databaseTimeouts).toEqual({ connectMs: 5000, queryMs: 15_000 })
  })

  it('take whole milliseconds', () => {
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '2500' }).databaseTimeouts).toEqual({
      connectMs: 1000,
      queryMs: 2500,
    })
  })

  it.each([
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon', /DATABASE_CONNECT_TIMEOUT_MS: expected a number of milliseconds/],
    ['DATABASE_CONNECT_TIMEOUT_MS', '10', /DATABASE_CONNECT_TIMEOUT_MS: expected at least 100 ms/],
    ['DATABASE_QUERY_TIMEOUT_MS', '1.5', /DATABASE_QUERY_TIMEOUT_MS: expected a whole number of milliseconds/],
    ['DATABASE_QUERY_TIMEOUT_MS', '0', /DATABASE_QUERY_TIMEOUT_MS: expected at least 100 ms/],
  ])('refuse %s=%s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })
})
