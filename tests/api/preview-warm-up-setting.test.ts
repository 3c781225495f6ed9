import { afterAll, beforeAll, expect, it } from 'vitest'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'

/**
 * PREVIEW_WARM_UP (decision 056) over a real process (`npm run start:api`): on by default, the renderer is warmed
 * before the API listens; `false` skips it (the test suite's short-lived stores); a value that is not a yes or a no
 * stops the start with the setting's name.
 */
const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
const WARMED = 'Preview renderer warmed'
const LISTENING = 'Keepsake album API on port'

let store: Store
beforeAll(async () => {
  store = await freshStore(engine)
}, 120_000)
afterAll(async () => {
  killServers()
  await store?.drop()
})

const logged = { LOG_LEVEL: 'info', LOG_FORMAT: 'json', DEMO_MODE: 'false' }

it('warms the renderer before the API listens when the setting is left alone', { timeout: 180_000 }, async () => {
  // The test helper turns it off for every other test store; an empty value is "not set".
  const server = await startServer({ ...store.env, ...logged, PREVIEW_WARM_UP: '' })
  const output = server.output()
  await server.kill()
  expect(output).toContain(WARMED)
  expect(output.indexOf(WARMED)).toBeLessThan(output.indexOf(LISTENING))
})

it('skips the warm-up with PREVIEW_WARM_UP=false', { timeout: 180_000 }, async () => {
  const server = await startServer({ ...store.env, ...logged, PREVIEW_WARM_UP: 'false' })
  const output = server.output()
  await server.kill()
  expect(output).toContain(LISTENING)
  expect(output).not.toContain(WARMED)
})

it('refuses to start with PREVIEW_WARM_UP=maybe, naming the setting', { timeout: 180_000 }, async () => {
  const server = await startServer({ ...store.env, ...logged, PREVIEW_WARM_UP: 'maybe' }, { listening: null })
  const how = await server.exit
  expect(how.code).not.toBe(0)
  expect(server.output()).toContain('PREVIEW_WARM_UP')
  expect(server.output()).not.toContain(LISTENING)
})
