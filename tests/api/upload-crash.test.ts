/**
 * An upload killed mid-ingest must not stay `ingesting` for ever (every retried PUT 409)
 * nor leave a half-written `*.tmp` and orphan renditions on disk. A real serve-api process is SIGKILLed
 * at several instants of a local upload's ingest and restarted on the same data: the upload is absent
 * and retryable with the same link, ends whole, and no temporary file is left.
 */
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'
import { createTestApi, TEST_ORIGIN } from '../support/test-api'

const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
const common = { PUBLIC_URL: TEST_ORIGIN, SESSION_SECRET: 'upload-crash-session-secret-0123456789abcdef' }
const stores: Store[] = []
afterEach(killServers)
afterAll(async () => {
  for (const store of stores) await store.drop()
})

const filesUnder = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]) : [])

describe.runIf(engine === 'pglite')('an upload killed mid-ingest', () => {
  for (const point of ['storage:before-rename', 'upload:after-original', 'upload:after-renditions']) {
    it(`killed at ${point}: after a restart the same link takes the photo, whole, and no temporary file is left`, { timeout: 180_000 }, async () => {
      const store = await freshStore('pglite')
      stores.push(store)
      const prepared = await createTestApi({ ...common, ...store.env }, { database: { databaseUrl: null, dataDir: store.dataDir } })
      const cookie = await prepared.signIn(0)
      await prepared.close()
      const env = { ...common, ...store.env, DEMO_MODE: 'false' }
      const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2f6b4f' } })
        .jpeg({ quality: 95 })
        .toBuffer()

      let server = await startServer(env, { pauseAt: point })
      const link = await server.request('/v1/media/growth-product-photo', { method: 'POST', cookie, json: { fileName: 'tree.jpg', fileType: 'image/jpeg' } })
      expect(link.status).toBe(200)
      const signed = new URL(link.body.signedRequest as string, server.url)
      const put = () => fetch(`${server.url}${signed.pathname}${signed.search}`, { method: 'PUT', body: photo, headers: { 'content-type': 'image/jpeg' } })
      void put().catch(() => {})
      await server.pausedAt(point)
      await server.kill()

      server = await startServer(env)
      const media = path.join(store.dataDir, 'media')
      expect(filesUnder(media).filter((f) => f.endsWith('.tmp'))).toEqual([])
      const retried = await put()
      expect(retried.status, await retried.clone().text()).toBe(200)
      const mine = await server.request('/v1/media/uploads', { cookie })
      expect(mine.body.photos).toHaveLength(1)
      const small = await fetch(`${server.url}${new URL(mine.body.photos[0].url as string, server.url).pathname.replace('/smartphone.', '/small.')}`)
      expect(small.status).toBe(200)
      expect((await sharp(Buffer.from(await small.arrayBuffer())).metadata()).format).toBe('jpeg')
      await server.kill()
      expect(filesUnder(media).filter((f) => f.endsWith('.tmp'))).toEqual([])
    })
  }
})
