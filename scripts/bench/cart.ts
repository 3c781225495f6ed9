/**
 * npm run bench:cart — the cart endpoints over real sockets, driven by autocannon at a fixed number
 * of connections, next to a plain node:http handler doing the same database work in the same run:
 *  - GET /v1/photo-products-cart through the store's real path (srvx → Hono → request id, secure
 *    headers, CSRF check, cookie → session lookup → endpoint → zod response → JSON);
 *  - the same GET on a bare node:http server: session lookup by cookie hash, the open cart, its
 *    lines, totals and JSON.stringify with the very same service functions, no Hono, zod or middleware;
 *  - PUT /v1/photo-products-cart/items/{id} through the API, quantities alternating over three lines.
 * One in-memory PGlite (the embedded database) behind both servers, or with BENCH_DATABASE_URL (a
 * PostgreSQL server URL, e.g. postgres://postgres@127.0.0.1:5432/test) a fresh database made on that
 * server for the run and dropped after it. Prints a table; never fails on a time.
 *
 * Then the same GET at one connection on both servers: no queue, so its latency is the service time.
 *
 * BENCH_SECONDS (default 10) is the measured time per scenario; every autocannon run starts with its
 * own 2 s warm-up. Baseline and API alternate in halves (A B B A) so neither gets the quieter machine.
 * BENCH_CONNECTIONS defaults to 10.
 *
 * Where the load comes from: this machine has 2 cores and PGlite runs on the server's main thread, so
 * the server is one busy thread. autocannon in this process would share that event loop with it (every
 * response parsed and timed by the same thread that must answer the next request), which flatters
 * neither side and skews latency. So each scenario runs autocannon in a child process (this file again,
 * with BENCH_CART_DRIVE set): the OS gives the server one core and the load generator the other. Latency
 * is recorded by the child from autocannon's per-response timings (float ms), because autocannon's own
 * histogram keeps whole milliseconds, too coarse for p50s of a few ms.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import autocannon from 'autocannon'
import type { CartItemMetadata } from '../../app/contract/cart'
import type { OrnamentShape } from '../../app/catalogue/ornaments'
import { colourIds, typefaceIds, type PersonalText } from '../../app/catalogue/personal-line'
import { scratchPostgres } from '../support/scratch-postgres.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const WARMUP_SECONDS = 2
const TARGET_RATIO = 0.6
const TARGET_P99_MS = 25

type Drive = { url: string; requests: autocannon.Request[]; connections: number; seconds: number; warmupSeconds: number }
/** What one child measured: every 2xx latency (ms) and the counts. */
type Run = { latencies: number[]; seconds: number; total: number; errors: number; timeouts: number; non2xx: number; statuses: Record<string, number> }
type Measured = { reqPerSec: number; p50: number; p99: number; errors: number; non2xx: number; statuses: Record<string, number> }

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN)

/** Child side: warm up, then measure, and answer one JSON line on stdout. */
async function drive(spec: Drive) {
  const run = (seconds: number, onResponse?: (status: number, ms: number) => void) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const options = { url: spec.url, connections: spec.connections, duration: seconds, requests: spec.requests }
      const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)))
      if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms))
    })
  await run(spec.warmupSeconds)
  const latencies: number[] = []
  const result = await run(spec.seconds, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms)
  })
  const measured: Run = {
    latencies: latencies.map((ms) => Math.round(ms * 1000) / 1000),
    seconds: result.duration || spec.seconds,
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0])),
  }
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(measured)}\n`)
}

/** Parent side: the same file under the same loader (tsx), in its own process. */
function driveInChild(spec: Drive): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_CART_DRIVE: JSON.stringify(spec) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '))
      if (code !== 0 || !line) reject(new Error(`load generator exited with ${code}: ${out}`))
      else resolve(JSON.parse(line.slice('BENCH_RESULT '.length)) as Run)
    })
  })
}

if (process.env.BENCH_CART_DRIVE) {
  await drive(JSON.parse(process.env.BENCH_CART_DRIVE) as Drive)
  process.exit(0)
}

/** Several runs of one scenario as one: requests over the time they took, percentiles over all latencies. */
function summary(runs: Run[]): Measured {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b)
  const statuses: Record<string, number> = {}
  for (const r of runs) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n
  const sum = (f: (r: Run) => number) => runs.reduce((total, r) => total + f(r), 0)
  return {
    reqPerSec: sum((r) => r.total) / sum((r) => r.seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
    statuses,
  }
}

// The store's modules are imported here, not at the top, so the load generator does not load them
// (seconds of start-up on this machine, for code it never runs).
const [
  { serve },
  { loadConfig },
  { createApi },
  { openDatabase },
  { previews },
  { findSessionUser },
  { cartPlan, estimatedTaxDestination, openCart },
  { planTotals },
  { creditForCart },
  { shippingMethodIds, shippingPriceCents },
  { demoAccounts, seedDemoAccounts },
  { SESSION_COOKIE },
  { findOrnamentVariant, ornamentProduct, ornamentShapes, pseudoTemplates, variantOfShape },
  { toCents },
] = await Promise.all([
  import('srvx'),
  import('../../app.config'),
  import('../../app/api/app'),
  import('../../app/api/db/client'),
  import('../../app/api/db/schema'),
  import('../../app/api/services/accounts'),
  import('../../app/api/services/cart'),
  import('../../app/api/services/parcel-plans'),
  import('../../app/api/services/credit'),
  import('../../app/catalogue/shipping'),
  import('../../app/api/demo/accounts'),
  import('../../app/contract/headers'),
  import('../../app/catalogue/ornaments'),
  import('../../app/catalogue/pricing'),
])

// --- the store: database, demo user, previews and three cart lines -----------------------------------
const config = loadConfig({ ...process.env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-bench-cart-')), DEMO_MODE: 'true' })
process.once('exit', () => fs.rmSync(config.dataDir, { recursive: true, force: true }))
// BENCH_DATABASE_URL: a PostgreSQL server; the bench makes a database of its own there and drops it after.
const scratch = process.env.BENCH_DATABASE_URL ? await scratchPostgres(process.env.BENCH_DATABASE_URL, 'keepsake_bench_cart') : null
const database = await openDatabase({ databaseUrl: scratch?.url ?? null, dataDir: null })
const db = database.db
await seedDemoAccounts(db)
const api = createApi({ db, config, now: () => new Date() })
const user = demoAccounts[0].user

const inProcess = async (method: string, route: string, init: { cookie?: string; json?: unknown } = {}) => {
  const headers = new Headers()
  if (init.cookie) headers.set('cookie', init.cookie)
  if (init.json !== undefined) headers.set('content-type', 'application/json')
  const res = await api.fetch(
    new Request(`${config.publicUrl}/v1${route}`, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) }),
  )
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`)
  return res
}

const signIn = await inProcess('POST', '/demo/sessions', { json: { userId: user.id } })
const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!

/** A preview record as generate-preview writes it, without rendering (the idea of tests/support/cart.ts). */
async function recordPreview(shape: OrnamentShape, text?: PersonalText) {
  const id = crypto.randomUUID()
  const variant = variantOfShape(shape)
  const url = (file: string) => api.deps.media.previewUrl(id, file)
  const photoIds = [crypto.randomUUID(), crypto.randomUUID()]
  const sourceImages = photoIds.map((photoId, i) => ({ cropped: url(`source-${i}.jpg`), original: api.deps.media.photoUrl(photoId, 'smartphone') }))
  const printAreas = [
    { position: 'front', imageUrl: url('front.png') },
    { position: 'back', imageUrl: url('back.png') },
  ]
  await db.insert(previews).values({
    id,
    userId: user.id,
    variantId: variant.id,
    pseudoTemplateId: pseudoTemplates[shape].id,
    backSideId: `${variant.id}-3`,
    design: photoIds.map((photoId, i) => ({ cellId: `${shape}-${i ? 'right' : 'left'}`, photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    printAreas,
    sourceImages,
    images: [url('mockup-front.jpg'), url('mockup-back.jpg')],
    provider: 'local',
    providerProductId: id,
    ...(text ? { text } : {}),
  })
  const catalogue = findOrnamentVariant(variant.id)!
  return {
    itemIdentifier: `preview-${id}`,
    provider: 'PRINTIFY',
    metadata: {
      providerProductId: ornamentProduct.providerProductId,
      variantId: catalogue.id,
      printProviderId: ornamentProduct.printProviderId,
      title: `${catalogue.name} Photo Ornament`,
      price: catalogue.price,
      salePrice: catalogue.salePrice,
      previewCdnUrl: url('mockup-front.jpg'),
      previewCdnUrls: [url('mockup-front.jpg'), url('mockup-back.jpg')],
      sourceImages,
      printAreas,
      pseudoTemplateId: pseudoTemplates[shape].id,
      ...(text ? { text } : {}),
    },
  }
}

const lineIds: string[] = []
// The first line carries a personal line, as a line with text is stored and answered (issue 19).
const personalLine: PersonalText = { left: { line: 'Our first Christmas', typeface: typefaceIds[0], colour: colourIds[0] } }
for (const [i, shape] of [...ornamentShapes, ...ornamentShapes].slice(0, 3).entries()) {
  const added = await inProcess('POST', '/photo-products-cart/items', { cookie, json: await recordPreview(shape, i === 0 ? personalLine : undefined) })
  lineIds.push(((await added.json()) as { item: { id: string } }).item.id)
}

// --- the two servers ----------------------------------------------------------------------------------
// The store's real path: srvx on node:http, as scripts/serve-api.ts serves the API.
const apiServer = serve({ port: 0, hostname: '127.0.0.1', silent: true, fetch: (request) => api.fetch(request) })
await apiServer.ready()
const apiUrl = apiServer.url!.replace(/\/$/, '')

// The baseline: what a developer would write by hand for the same answer, with the same queries.
const sessionCookie = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`)
const baseline = http.createServer(async (req, res) => {
  try {
    if (req.method !== 'GET' || req.url !== '/v1/photo-products-cart') return void res.writeHead(404).end()
    const token = req.headers.cookie?.match(sessionCookie)?.[1]
    const shopper = token ? await findSessionUser(db, token, new Date()) : null
    if (!shopper) return void res.writeHead(401).end()
    const cart = await openCart(db, shopper.id)
    // The same reads as the API's cartView: lines, the credit (balance plus what an open checkout holds), and where tax is estimated for.
    const [{ rows, plan }, credit, destination] = await Promise.all([
      cartPlan(db, cart),
      creditForCart(db, shopper.id, cart.id),
      estimatedTaxDestination(db, shopper.id),
    ])
    const totals = planTotals(plan, rows, credit, destination)
    const own = totals.parcels[0]!
    const shippingOptions = shippingMethodIds.map((method) => ({ method, priceCents: shippingPriceCents(method, own.goodsCents, own.itemCount) }))
    const body = JSON.stringify({
      id: cart.id,
      status: cart.status,
      items: rows.map((row) => {
        // The stored metadata keeps backSideId; the answer shows it beside the metadata, not in it.
        const { backSideId = '', ...metadata } = row.metadata as CartItemMetadata & { backSideId?: string }
        return {
          id: row.id,
          itemIdentifier: row.itemIdentifier,
          provider: row.provider,
          quantity: row.quantity,
          metadata,
          previewId: row.previewId,
          backSideId,
          lineTotalCents: toCents(row.metadata.price) * row.quantity,
          lineSaleTotalCents: toCents(row.metadata.salePrice) * row.quantity,
          addedAt: row.createdAt.toISOString(),
        }
      }),
      totals,
      availableCreditCents: credit,
      shippingOptions,
      // A cart shipping to one address (the bench's): one parcel, the shopper's own, holding every line.
      parcels: [
        {
          key: 'own',
          addressId: null,
          label: null,
          address: null,
          shippingMethod: cart.shippingMethod,
          giftMessage: '',
          recipientEmail: '',
          items: plan[0]!.items,
          shippingOptions,
        },
      ],
      updatedAt: cart.updatedAt.toISOString(),
    })
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
  } catch (error) {
    console.error('[baseline]', error)
    res.writeHead(500).end()
  }
})
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
const baselineUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`

// Both must answer the same cart, or the comparison means nothing.
const [fromApi, fromBaseline] = await Promise.all(
  [apiUrl, baselineUrl].map(async (base) => {
    const res = await fetch(`${base}/v1/photo-products-cart`, { headers: { cookie } })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`${base} answered ${res.status}: ${text}`)
    return { bytes: Buffer.byteLength(text), body: JSON.parse(text) as { items: unknown[] } }
  }),
)
/** Where two JSON answers part: the paths whose values differ (a key on one side only counts). */
function differences(a: unknown, b: unknown, at = '$'): string[] {
  if (isDeepStrictEqual(a, b)) return []
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`))
  }
  return [`${at}: API ${JSON.stringify(a)} / baseline ${JSON.stringify(b)}`]
}
const parted = differences(fromApi!.body, fromBaseline!.body)
const withText = (fromApi!.body.items as { metadata: { text?: unknown } }[]).filter((i) => i.metadata.text).length
if (parted.length > 0 || fromApi!.body.items.length !== 3 || withText !== 1) {
  throw new Error(
    `The API and the baseline answer different carts; fix the baseline before comparing them:\n  ${parted.slice(0, 20).join('\n  ') || `${fromApi!.body.items.length} lines, ${withText} with a personal line (expected 3 and 1)`}`,
  )
}

// --- load ---------------------------------------------------------------------------------------------
const getCartRequest: autocannon.Request[] = [{ method: 'GET', path: '/v1/photo-products-cart', headers: { cookie } }]
// A browser sends Origin on a PUT; the CSRF middleware lets it through when it is our own PUBLIC_URL.
const putRequests: autocannon.Request[] = [0, 1].flatMap((round) =>
  lineIds.map((id, i) => ({
    method: 'PUT' as const,
    path: `/v1/photo-products-cart/items/${id}`,
    headers: { cookie, origin: config.publicUrl, 'content-type': 'application/json' },
    body: JSON.stringify({ quantity: ((i + round) % 3) + 1 }),
  })),
)
const run = (url: string, requests: autocannon.Request[], connections: number, seconds: number) =>
  driveInChild({ url, requests, connections, seconds, warmupSeconds: WARMUP_SECONDS })
/**
 * Baseline and API side by side, each SECONDS in all, as two halves in the order A B B A, so a
 * neighbour's load on this shared machine or a slow drift weighs on both sides alike.
 */
async function sideBySide(requests: autocannon.Request[], connections: number) {
  const half = SECONDS / 2
  const a1 = await run(baselineUrl, requests, connections, half)
  const b1 = await run(apiUrl, requests, connections, half)
  const b2 = await run(apiUrl, requests, connections, half)
  const a2 = await run(baselineUrl, requests, connections, half)
  return { baseline: summary([a1, a2]), api: summary([b1, b2]) }
}

console.log(
  `\nbench:cart — ${CONNECTIONS} connections, ${SECONDS} s measured per scenario (each run after its own ${WARMUP_SECONDS} s warm-up), autocannon in a child process, ` +
    `${os.cpus().length} cores, Node ${process.version}, ${database.engine === 'postgres' ? 'PostgreSQL (pool of 10)' : 'in-memory PGlite'}, cart of 3 lines (${fromApi!.bytes} B JSON)`,
)
console.log('Baseline and API runs alternate (A B B A, half the time each); errors are socket errors and timeouts.\n')
const loadBefore = os.loadavg()[0]!
const { baseline: baselineGet, api: apiGet } = await sideBySide(getCartRequest, CONNECTIONS)
const apiPut = summary([await run(apiUrl, putRequests, CONNECTIONS, SECONDS)])
// One connection: no queue, so the latency is the service time of one request.
const { baseline: baselineGetAlone, api: apiGetAlone } = await sideBySide(getCartRequest, 1)
const loadAfter = os.loadavg()[0]!

const after = (await (await inProcess('GET', '/photo-products-cart', { cookie })).json()) as { items: { quantity: number }[] }
await Promise.resolve(apiServer.close())
await new Promise((resolve) => baseline.close(resolve))
await database.close()
await scratch?.drop()

const failures = (m: Measured) => {
  const other = Object.entries(m.statuses).filter(([code]) => !code.startsWith('2'))
  return `${m.errors} / ${m.non2xx}${other.length ? ` (${other.map(([code, n]) => `${n}× ${code}`).join(', ')})` : ''}`
}
const row = (name: string, m: Measured) => console.log(`| ${name} | ${m.reqPerSec.toFixed(0)} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${failures(m)} |`)
console.log('| scenario | req/s | p50 ms | p99 ms | errors / non-2xx |')
console.log('|---|---|---|---|---|')
row('GET /v1/photo-products-cart — plain node:http, same queries (baseline)', baselineGet)
row('GET /v1/photo-products-cart — API (srvx → Hono → middleware → zod)', apiGet)
row('PUT /v1/photo-products-cart/items/{id} — API, 3 lines, quantities alternating', apiPut)
row('GET, 1 connection — baseline', baselineGetAlone)
row('GET, 1 connection — API', apiGetAlone)

const ratio = apiGet.reqPerSec / baselineGet.reqPerSec
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
console.log(`\nAPI / baseline throughput (GET): ${ratio.toFixed(2)} — target ≥ ${TARGET_RATIO}: ${verdict(ratio >= TARGET_RATIO)}`)
console.log(`p99 GET through the API: ${apiGet.p99.toFixed(2)} ms — target ≤ ${TARGET_P99_MS} ms: ${verdict(apiGet.p99 <= TARGET_P99_MS)}`)
console.log(`p99 PUT through the API: ${apiPut.p99.toFixed(2)} ms — target ≤ ${TARGET_P99_MS} ms: ${verdict(apiPut.p99 <= TARGET_P99_MS)}`)
console.log(
  `(At a fixed ${CONNECTIONS} connections and one database, mean latency ≈ connections ÷ throughput: a p99 of ${TARGET_P99_MS} ms needs ` +
    `well over ${Math.round(CONNECTIONS / (TARGET_P99_MS / 1000))} req/s. The 1-connection rows are the service time without the queue.)`,
)
console.log(
  `Load average (1 min) ${loadBefore.toFixed(1)} before the runs, ${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores: anything well above 1 means other work shared the machine.`,
)
console.log(`Quantities after the PUT run: ${after.items.map((i) => i.quantity).join(', ')} (each PUT answers the whole cart, as the API does)`)
