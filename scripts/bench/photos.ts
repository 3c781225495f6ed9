/**
 * npm run bench:photos — rendition throughput of the ingest pipeline next to plain sharp doing the
 * same resizes in the same run, and photo-proxy latency cold and cached. Prints tables; never fails.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { loadConfig } from '../../app.config'
import { createApi } from '../../app/api/app'
import { openDatabase } from '../../app/api/db/client'
import { makeRenditions, RENDITION_JPEG, RENDITION_LONG_EDGE, renditionNames } from '../../app/api/media/images'
import { mediaUrls } from '../../app/api/media/urls'
import { seedDemoAccounts, demoAccounts } from '../../app/api/demo/accounts'
import { ImageCache, proxyPhoto } from '../../app/api/services/photo-proxy'
import { storePhoto } from '../../app/api/services/photo-library'
import { ensureDemoPhotoLibrary } from '../../app/api/demo/photo-scenes'
import { storageFor } from '../../app/api/storage'

const ROUNDS = 3
const config = loadConfig({ ...process.env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-bench-')), DEMO_MODE: 'true' })
const library = await ensureDemoPhotoLibrary(path.join(config.demoPhotoCacheDir, 'library'), 24)
const inputs = library.map(({ file }) => fs.readFileSync(file))
const megapixels = library.reduce((sum, { spec }) => sum + (spec.width * spec.height) / 1e6, 0)

/** What a developer would write without our pipeline: the same three resizes and encodes with sharp, nothing else. */
const plainSharp = (bytes: Buffer) =>
  Promise.all(
    renditionNames.map((name) =>
      sharp(bytes)
        .rotate()
        .resize({ width: RENDITION_LONG_EDGE[name], height: RENDITION_LONG_EDGE[name], fit: 'inside', withoutEnlargement: true })
        .jpeg(RENDITION_JPEG[name])
        .toBuffer(),
    ),
  )

async function throughput(run: (bytes: Buffer) => Promise<unknown>) {
  const started = performance.now()
  for (const bytes of inputs) await run(bytes)
  return inputs.length / ((performance.now() - started) / 1000)
}

sharp.cache(false)
await throughput(plainSharp) // warm-up: libvips and the JIT
const ours: number[] = []
const plain: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so neither side always runs on a warmer machine.
  if (round % 2 === 0) {
    ours.push(await throughput((b) => makeRenditions(b, 'image/jpeg')))
    plain.push(await throughput(plainSharp))
  } else {
    plain.push(await throughput(plainSharp))
    ours.push(await throughput((b) => makeRenditions(b, 'image/jpeg')))
  }
}
const best = (xs: number[]) => Math.max(...xs)
console.log(
  `\nRenditions (small 512, smartphone 1280, original 4096 px), ${inputs.length} photos, ${megapixels.toFixed(0)} MP, best of ${ROUNDS} rounds, ${os.cpus().length} cores\n`,
)
console.log('| pipeline | photos/s | ratio to plain sharp |')
console.log('|---|---|---|')
console.log(`| plain sharp, same three resizes | ${best(plain).toFixed(2)} | 1.00 |`)
console.log(`| Keepsake ingest (sniff, orient, sRGB, 3 renditions, ETags) | ${best(ours).toFixed(2)} | ${(best(ours) / best(plain)).toFixed(2)} |`)

// Proxy latency: our own media through the API, and a remote CDN through the SSRF-safe fetcher.
const database = await openDatabase({ databaseUrl: null, dataDir: null })
const storage = storageFor(config)
await seedDemoAccounts(database.db)
const api = createApi({ db: database.db, config, storage, now: () => new Date() })
const family = demoAccounts[0].family.id
const photoIds: string[] = []
for (const bytes of inputs) {
  const row = await storePhoto(
    database.db,
    storage,
    { id: crypto.randomUUID(), familyId: family, ownerUserId: null, source: 'album', capturedAt: new Date() },
    await makeRenditions(bytes, 'image/jpeg'),
  )
  photoIds.push(row.id)
}
const signIn = await api.fetch(
  new Request(`${config.publicUrl}/v1/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId: demoAccounts[0].user.id }),
  }),
)
const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!

const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now()
  await run()
  return performance.now() - started
}
const stats = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return `${at(0.5).toFixed(1)} | ${at(0.95).toFixed(1)}`
}
const proxyRequest = (url: string, etag?: string) =>
  api.fetch(
    new Request(`${config.publicUrl}/v1/keepsake-photos/proxy?url=${encodeURIComponent(url)}&outputSize=smartphone`, {
      headers: { cookie, ...(etag ? { 'if-none-match': etag } : {}) },
    }),
  )

const ownCold: number[] = []
const ownCached: number[] = []
for (const id of photoIds) {
  const url = mediaUrls(config).photoUrl(id, 'small')
  let etag = ''
  ownCold.push(
    await timed(async () => {
      const res = await proxyRequest(url)
      etag = res.headers.get('etag')!
      await res.arrayBuffer()
    }),
  )
  ownCached.push(await timed(async () => (await proxyRequest(url, etag)).arrayBuffer()))
}

const cdn = http.createServer((req, res) => {
  const index = Number(req.url!.match(/\d+/)![0])
  res.writeHead(200, { 'content-type': 'image/jpeg' }).end(inputs[index % inputs.length])
})
await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve))
const port = (cdn.address() as AddressInfo).port
const remote = {
  storage,
  media: mediaUrls(config),
  remoteHosts: [`cdn.bench.test:${port}`],
  cache: new ImageCache(64 * 1024 * 1024),
  fetchOptions: { lookup: async () => [{ address: '127.0.0.1', family: 4 as const }], isAllowedAddress: (ip: string) => ip === '127.0.0.1' },
}
const remoteCold: number[] = []
const remoteCached: number[] = []
for (let i = 0; i < inputs.length; i++) {
  const url = `http://cdn.bench.test:${port}/photo-${i}.jpg`
  remoteCold.push(await timed(() => proxyPhoto(remote, url, 'smartphone')))
  remoteCached.push(await timed(() => proxyPhoto(remote, url, 'smartphone')))
}
cdn.close()
await database.close()
fs.rmSync(config.dataDir, { recursive: true, force: true })

console.log(`\nPhoto proxy latency, ${inputs.length} photos each, in-process (no socket to the API)\n`)
console.log('| source | p50 ms | p95 ms |')
console.log('|---|---|---|')
console.log(`| own media, cold (read from storage) | ${stats(ownCold)} |`)
console.log(`| own media, cached (ETag → 304) | ${stats(ownCached)} |`)
console.log(`| CDN 2400 px JPEG on loopback, cold (fetch + resize) | ${stats(remoteCold)} |`)
console.log(`| CDN, cached (server LRU) | ${stats(remoteCached)} |`)
