/**
 * npm run bench:peak — the holiday peak: N simulated shoppers on the production build with PostgreSQL.
 *
 * The store runs as it does in production (scripts/serve.ts on dist/, a child process) on a fresh
 * PostgreSQL database made for the run on BENCH_DATABASE_URL's server (default the local `test` one)
 * and dropped after it, DEMO_MODE on. Each shopper has an album account of their own (a user, a family
 * they own and album photos, made as `npm run account:create` makes them) and signs in over HTTP the
 * way the album app hands a shopper over (a one-time transition code, POST /v1/growth/transition-token).
 *
 * At each N (PEAK_N, default 1,5,10,20,40) N shoppers run at once, each PEAK_ROUNDS shopping trips (default 3),
 * and each trip as a real shopper makes it, trying a few designs before buying one (issue 50, item 5):
 *   landing   GET /photo-products (the page's HTML)
 *   photos    GET /v1/{product}-photos and /v1/{product}-photos/{familyId} (what the photos page asks)
 *   preview   POST /v1/printify/generate-preview (the designer's server preview), PEAK_PREVIEWS_PER_TRIP times
 *             (default 3; 1–10): the trip's shape with other photos each time, every one a 'preview' sample
 *   cart      POST /v1/photo-products-cart/items, the trip's last preview only
 *   checkout  POST /v1/photo-products-cart/checkout-session, then GET its page
 *   pay       POST /v1/checkout/local/{id}/pay with the local test card
 * and per step it prints throughput (completed per second of the level's wall time), p50, p95 and errors. Every
 * level has shoppers of its own, so no shopper makes more than rounds × previews per trip previews, which may be at
 * most the store's PREVIEWS_PER_HOUR (30).
 *
 * The ceiling: in the same run, after each level, a child process composites the same front layers
 * with plain sharp (two photos resized into their cells, the mask cutting them, the frame over them,
 * PNG out) with N at once, one per trip (as many as the level made purchases: one print composite each).
 * Goals: the store's preview p95 ≤ 0.25 × the plain sharp p95 at N = 40, a trip's CPU time (all its previews
 * and steps, the store's background work included) ≤ 1.2 × one plain-sharp print composite's, and 0 errors at every N.
 *
 * After the last level it waits (up to 3 minutes) for the store's jobs: the print files rendered in the background
 * once an item is in a cart, and each paid order's parcels submitted to the print provider; then it prints how many
 * orders were paid, how many have both print files of every item kept, and how many reached the print provider
 * (the three must be equal, or it counts as an error).
 *
 * --quick (or PEAK_QUICK=1): N = 1,5 and 2 rounds. PEAK_PORT: the store's port (default E2E_PORT_BASE + 50,
 * or 4650). The machine may be shared: the load average is printed before and after.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { scratchPostgres } from '../support/scratch-postgres.ts'

const root = path.resolve(import.meta.dirname, '../..')
const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)]! : NaN)

// --- the plain sharp ceiling (child side) ---------------------------------------------------------------
type CeilingJob = { concurrency: number; total: number; photos: string[]; shapes: string[] }
type Timings = { ms: number[]; errors: number; wallMs: number; cpuMs: number }

async function ceiling(job: CeilingJob): Promise<Timings> {
  const { pseudoTemplates, photoCells } = await import('../../app/catalogue/ornaments')
  const { cellClipRect, outputSize } = await import('../../app/compositor/layout')
  const { baseImage } = await import('../../app/compositor/base-images.server')
  // Every shape, taken in turn as the shoppers take them; the art of each is the same for every design,
  // so it is decoded once, as the store keeps it decoded (decision 037).
  const raw = (size: { width: number; height: number }) => ({ width: size.width, height: size.height, channels: 4 as const })
  const layouts = await Promise.all(
    job.shapes.map(async (shape) => {
      const template = pseudoTemplates[shape as keyof typeof pseudoTemplates]
      const size = outputSize(template, 1)
      const [mask, frame] = await Promise.all(
        [template.maskImageUrl, template.templateImageUrl].map(async (url) =>
          sharp(await baseImage(url))
            .resize(size.width, size.height, { fit: 'fill' })
            .ensureAlpha()
            .raw()
            .toBuffer(),
        ),
      )
      return { size, mask: mask!, frame: frame!, cells: photoCells(template).map((cell) => cellClipRect(cell, 1)) }
    }),
  )
  const originals = job.photos.map((file) => fs.readFileSync(file))
  const one = async (k: number) => {
    const { size, mask, frame, cells } = layouts[k % layouts.length]!
    const placed = await Promise.all(
      cells.map(async (rect, i) => ({
        input: await sharp(originals[i % originals.length]!)
          .rotate()
          .resize(rect.width, rect.height, { fit: 'cover', kernel: 'lanczos3' })
          .ensureAlpha()
          .raw()
          .toBuffer(),
        raw: raw(rect),
        left: rect.left,
        top: rect.top,
      })),
    )
    const front = await sharp({ create: { ...raw(size), background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([...placed, { input: mask, raw: raw(size), blend: 'dest-in' }, { input: frame, raw: raw(size) }])
      .raw()
      .toBuffer()
    return sharp(front, { raw: raw(size) })
      .png({ compressionLevel: 6 })
      .toBuffer()
  }
  for (let k = 0; k < layouts.length; k++) await one(k) // warm: the first calls load the codecs
  const ms: number[] = []
  let errors = 0
  let next = 0
  const started = performance.now()
  const cpuBefore = process.cpuUsage()
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.total) {
        const k = next++
        const t = performance.now()
        try {
          await one(k)
          ms.push(performance.now() - t)
        } catch {
          errors++
        }
      }
    }),
  )
  const cpu = process.cpuUsage(cpuBefore)
  return { ms, errors, wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 }
}

/**
 * CPU time (user + system, every thread) the processes `pids` have used so far, in ms, from /proc (Linux): on a
 * machine shared with other work, a process's CPU time per trip moves far less than its wall-clock rate.
 */
function cpuMsOf(pids: number[]): number {
  let ticks = 0
  for (const pid of pids) {
    try {
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // A process that has gone used no more.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS
}
const CLOCK_TICKS = 100

if (process.env.PEAK_CEILING) {
  const result = await ceiling(JSON.parse(process.env.PEAK_CEILING) as CeilingJob)
  process.stdout.write(`PEAK_RESULT ${JSON.stringify(result)}\n`)
  process.exit(0)
}

function ceilingInChild(job: CeilingJob): Promise<Timings> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      cwd: root,
      env: { ...process.env, ...allocator, PEAK_CEILING: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('PEAK_RESULT '))
      if (code !== 0 || !line) reject(new Error(`the sharp ceiling exited with ${code}: ${out}`))
      else resolve(JSON.parse(line.slice('PEAK_RESULT '.length)) as Timings)
    })
  })
}

/**
 * The allocator setting `npm run serve` starts the store with (package.json; decision 056): glibc's malloc asks the
 * kernel for transparent huge pages. The store and the ceiling both run with it, so the ratio compares code, not
 * settings.
 */
const STORE_GLIBC_TUNABLES = 'glibc.malloc.hugetlb=1'
const allocator = { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES ?? STORE_GLIBC_TUNABLES }

// --- settings -----------------------------------------------------------------------------------------
const quick = process.argv.includes('--quick') || process.env.PEAK_QUICK === '1'
const levels = (process.env.PEAK_N ?? (quick ? '1,5' : '1,5,10,20,40')).split(',').map((n) => Number(n.trim()))
if (levels.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) throw new Error('PEAK_N: whole numbers from 1 to 200, comma-separated')
const rounds = Number(process.env.PEAK_ROUNDS ?? (quick ? 2 : 3))
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('PEAK_ROUNDS: a whole number from 1')
const previewsPerTrip = Number(process.env.PEAK_PREVIEWS_PER_TRIP ?? 3)
if (!Number.isInteger(previewsPerTrip) || previewsPerTrip < 1 || previewsPerTrip > 10) throw new Error('PEAK_PREVIEWS_PER_TRIP: a whole number from 1 to 10')
const { PREVIEWS_PER_HOUR } = await import('../../app/api/services/previews')
if (rounds * previewsPerTrip > PREVIEWS_PER_HOUR) {
  throw new Error(
    `PEAK_ROUNDS × PEAK_PREVIEWS_PER_TRIP is ${rounds} × ${previewsPerTrip} = ${rounds * previewsPerTrip}: at most ${PREVIEWS_PER_HOUR} (the store's previews per shopper per hour)`,
  )
}
// Every level has shoppers of its own (a shopper's hour of previews is not spent by an earlier level): level j's are
// the accounts from firstShopper[j] on.
const firstShopper = levels.map((_, j) => levels.slice(0, j).reduce((a, b) => a + b, 0))
const shoppers = levels.reduce((a, b) => a + b, 0)
const port = Number(process.env.PEAK_PORT ?? Number(process.env.E2E_PORT_BASE ?? 4600) + 50)
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PREVIEW_P95_LIMIT_MS = 5000
if (!fs.existsSync(path.join(root, 'dist/server/server.js'))) throw new Error('No production build in dist/: run npm run build first (npm run bench:peak does)')

// --- a database and a store of its own ----------------------------------------------------------------
const scratch = await scratchPostgres(serverUrl, 'keepsake_bench_peak')
const { name: dbName, url: databaseUrl } = scratch
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-bench-peak-'))
const publicUrl = `http://127.0.0.1:${port}`
const storeEnv: Record<string, string> = {
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: publicUrl,
  DATABASE_URL: databaseUrl,
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  SESSION_SECRET: 'bench-peak-session-secret-0123456789abcdef',
  ...allocator,
}

let store: ChildProcess | null = null
let closeDatabase = async () => {}
let storeOutput = ''
async function cleanUp() {
  await closeDatabase().catch(() => undefined)
  if (store && store.exitCode === null) {
    const exited = new Promise((resolve) => store!.once('exit', resolve))
    store.kill('SIGTERM')
    await exited
  }
  await scratch.drop().catch((error) => console.error('[bench:peak] could not drop', dbName, error))
  fs.rmSync(dataDir, { recursive: true, force: true })
}

try {
  store = spawn(process.execPath, ['scripts/serve.ts'], { cwd: root, env: { ...process.env, ...storeEnv }, stdio: ['ignore', 'pipe', 'pipe'] })
  store.stdout!.on('data', (chunk: Buffer) => (storeOutput += chunk.toString()))
  store.stderr!.on('data', (chunk: Buffer) => (storeOutput += chunk.toString()))
  const deadline = Date.now() + 180_000
  for (;;) {
    if (store.exitCode !== null) throw new Error(`the store exited (${store.exitCode}):\n${storeOutput}`)
    if (Date.now() > deadline) throw new Error(`the store did not answer within 3 minutes:\n${storeOutput}`)
    const ok = await fetch(`${publicUrl}/photo-products`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  await run()
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await cleanUp()
}

async function run() {
  process.env.DATABASE_URL = databaseUrl
  const [
    { eq },
    { photoKey },
    { loadConfig },
    { openDatabase },
    { families, familyMembers, photos, users },
    { addGeneratedAlbumPhotos },
    { storageFor },
    { issueTransitionToken },
    catalogue,
    { LOCAL_TEST_CARDS },
    { printFileKey },
  ] = await Promise.all([
    import('drizzle-orm'),
    import('../../app/api/media/urls'),
    import('../../app.config'),
    import('../../app/api/db/client'),
    import('../../app/api/db/schema'),
    import('../../app/api/demo/albums'),
    import('../../app/api/storage'),
    import('../../app/api/services/accounts'),
    import('../../app/catalogue/ornaments'),
    import('../../app/contract/cart'),
    import('../../app/api/services/print-files'),
  ])
  const config = loadConfig({ ...process.env, ...storeEnv })
  const database = await openDatabase({ databaseUrl, dataDir: null })
  closeDatabase = database.close
  const storage = storageFor(config)

  // One album account per shopper, as account:create makes one: a user, their own family, 8 album photos.
  const accounts: { userId: string; familyId: string }[] = []
  for (let i = 0; i < shoppers; i++) {
    const account = await database.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email: `peak-${i}@bench.example`, firstName: `Shopper${i}`, lastName: 'Peak' })
        .returning({ id: users.id })
      const [family] = await tx
        .insert(families)
        .values({ name: `The Peak family ${i}` })
        .returning({ id: families.id })
      await tx.insert(familyMembers).values({ familyId: family!.id, userId: user!.id, role: 'owner' })
      return { userId: user!.id, familyId: family!.id }
    })
    await addGeneratedAlbumPhotos(database.db, storage, config.demoPhotoCacheDir, account.familyId, 8)
    accounts.push(account)
  }

  type Step = 'landing' | 'photos' | 'preview' | 'cart' | 'checkout' | 'pay'
  const steps: Step[] = ['landing', 'photos', 'preview', 'cart', 'checkout', 'pay']
  const headersFor = (cookie: string, body: boolean) => ({
    cookie,
    'x-keepsake-timezone': 'UTC',
    // A browser sends Origin on a POST; the CSRF check lets the store's own through.
    ...(body ? { origin: publicUrl, 'content-type': 'application/json' } : {}),
  })
  async function call(pathname: string, init: { cookie: string; method?: string; json?: unknown; expect?: number }) {
    const res = await fetch(`${publicUrl}${pathname}`, {
      method: init.method ?? 'GET',
      headers: headersFor(init.cookie, init.json !== undefined || (init.method ?? 'GET') !== 'GET'),
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    })
    const text = await res.text()
    if (res.status !== (init.expect ?? 200)) throw new Error(`${init.method ?? 'GET'} ${pathname} answered ${res.status}: ${text.slice(0, 300)}`)
    return res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, any>) : { html: text }
  }

  // Signing in as the album app hands a shopper over: a one-time code, exchanged for the session cookie.
  const cookies: string[] = []
  for (const { userId } of accounts) {
    const { code } = await issueTransitionToken(database.db, userId, new Date())
    const res = await fetch(`${publicUrl}/v1/growth/transition-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${code}`, origin: publicUrl },
    })
    if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`)
    cookies.push(res.headers.get('set-cookie')!.split(';')[0]!)
  }

  const address = {
    name: 'Maya de la Rivera',
    email: 'maya@example.com',
    phone: '2125550100',
    line1: '12 Orchard Street',
    line2: '',
    city: 'New York',
    state: 'NY',
    postalCode: '10002',
    country: 'US',
  }
  const shapes = catalogue.ornamentShapes
  type Sample = { step: Step; start: number; ms: number; ok: boolean; error?: string }

  /** The store's CPU time per step, measured when one shopper runs alone (N = 1): where a trip's CPU goes. */
  const stepCpu = new Map<Step, number[]>()
  /** One shopping trip of account `i`, the level's shopper `slot` (which picks the trip's shape). */
  async function shop(i: number, slot: number, round: number, samples: Sample[], alone = false) {
    const cookie = cookies[i]!
    const timed = async <T>(step: Step, work: () => Promise<T>): Promise<T> => {
      const t = performance.now()
      const cpuBefore = alone ? cpuMsOf([store!.pid!]) : 0
      try {
        const value = await work()
        if (alone) stepCpu.set(step, [...(stepCpu.get(step) ?? []), cpuMsOf([store!.pid!]) - cpuBefore])
        samples.push({ step, start: t, ms: performance.now() - t, ok: true })
        return value
      } catch (error) {
        samples.push({ step, start: t, ms: performance.now() - t, ok: false, error: error instanceof Error ? error.message : String(error) })
        throw error
      }
    }
    await timed('landing', () => call('/photo-products', { cookie }))
    const page = await timed('photos', async () => {
      const summary = await call(`/v1/${config.productSlug}-photos`, { cookie })
      const familyId = (summary.families as { familyId: string }[])[0]!.familyId
      return call(`/v1/${config.productSlug}-photos/${familyId}?filter=all`, { cookie })
    })
    const photos = page.photos as { id: string }[]
    const shape = shapes[(slot + round) % shapes.length]!
    const variant = catalogue.variantOfShape(shape)
    const template = catalogue.pseudoTemplates[shape]
    const cells = catalogue.photoCells(template)
    // The shopper tries a few designs (the trip's shape, other photos each time) and buys the last one.
    let generated: Record<string, any> = {}
    for (let p = 0; p < previewsPerTrip; p++) {
      generated = await timed('preview', () =>
        call('/v1/printify/generate-preview', {
          cookie,
          method: 'POST',
          expect: 201,
          json: {
            variantId: variant.id,
            pseudoTemplateId: template.id,
            backSideId: catalogue.backSides[shape][0]!.id,
            cells: cells.map((cell, k) => ({
              cellId: cell.id,
              photoId: photos[((round * previewsPerTrip + p) * 2 + k) % photos.length]!.id,
              transform: { x: 0, y: 0, zoom: 1, rotation: 0 },
            })),
          },
        }),
      )
    }
    await timed('cart', () =>
      call('/v1/photo-products-cart/items', {
        cookie,
        method: 'POST',
        expect: 201,
        json: {
          itemIdentifier: `preview-${generated.previewId}`,
          provider: 'PRINTIFY',
          metadata: {
            providerProductId: catalogue.ornamentProduct.providerProductId,
            variantId: variant.id,
            printProviderId: catalogue.ornamentProduct.printProviderId,
            title: `${variant.name} Photo Ornament`,
            price: variant.price,
            salePrice: variant.salePrice,
            previewCdnUrl: generated.images[0],
            previewCdnUrls: generated.images,
            sourceImages: generated.sourceImages,
            printAreas: generated.printAreas,
            pseudoTemplateId: generated.pseudoTemplateId,
          },
        },
      }),
    )
    const session = await timed('checkout', async () => {
      const made = await call('/v1/photo-products-cart/checkout-session', { cookie, method: 'POST', expect: 201 })
      await call(new URL(made.url as string, publicUrl).pathname, { cookie })
      return made
    })
    await timed('pay', async () => {
      const paid = await call(`/v1/checkout/local/${session.id}/pay`, {
        cookie,
        method: 'POST',
        json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
      })
      if (paid.status !== 'paid') throw new Error(`the checkout is ${paid.status}, not paid`)
    })
  }

  // The originals the ceiling composites: two of the first shopper's album photos, as the store keeps them.
  const firstPhotos = await database.db.select({ id: photos.id }).from(photos).where(eq(photos.familyId, accounts[0]!.familyId)).limit(2)
  const originals = await Promise.all(
    firstPhotos.map(async ({ id }) => {
      const stored = await storage.get(photoKey(id, 'original'))
      if (!stored) throw new Error(`photo ${id} has no original in storage`)
      const file = path.join(dataDir, `ceiling-${id}.jpg`)
      fs.writeFileSync(file, stored.body)
      return file
    }),
  )
  if (originals.length < 2) throw new Error('the first shopper has fewer than two album photos')

  const fmt = (n: number) => (Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)) : '–')
  const loadBefore = os.loadavg()[0]!
  console.log(
    `\nbench:peak — production build (scripts/serve.ts), PostgreSQL (fresh database), ${os.cpus().length} cores, Node ${process.version}; ` +
      `N = ${levels.join(', ')}, ${rounds} round(s) per shopper, ${previewsPerTrip} preview(s) per trip (the last one bought); ` +
      `${shoppers} album accounts (each level its own), 8 photos each\n`,
  )
  const lines: string[] = ['| N | step | done/s | p50 ms | p95 ms | errors |', '|---|---|---|---|---|---|']
  const ratios: string[] = [
    '| N | previews/s (store) | composites/s (plain sharp) | ratio | store preview p95 ms | sharp p95 ms | preview p95 ÷ sharp p95 | errors |',
    '|---|---|---|---|---|---|---|---|',
  ]
  const cpuLines: string[] = [
    '| N | store ms/trip | PostgreSQL ms/trip | this client ms/trip | all ms/trip | plain sharp ms/composite | CPU ratio | trip ÷ sharp |',
    '|---|---|---|---|---|---|---|---|',
  ]
  const { default: pg } = await import('pg')
  const activity = new pg.Client({ connectionString: databaseUrl })
  await activity.connect()
  const backends = async () =>
    (await activity.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => Number(r.pid))
  let passedAt: number | null = null
  let totalErrors = 0
  const firstErrors = new Map<string, string>()
  /** Waits (up to 3 minutes) until no print-file render, submission or send to production is queued or running. */
  async function levelJobsDone() {
    const deadline = performance.now() + 180_000
    while (performance.now() < deadline) {
      const { rows } = await activity.query<{ n: string }>(
        `select count(*) as n from jobs where status in ('queued', 'running') and kind in ('render-print-files', 'submit-order', 'send-to-production') and run_at <= now()`,
      )
      const parcels = await activity.query<{ n: string }>(`select count(*) as n from order_parcels where status = 'paid'`)
      if (Number(rows[0]!.n) === 0 && Number(parcels.rows[0]!.n) === 0) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  for (const [j, n] of levels.entries()) {
    const samples: Sample[] = []
    const pgBefore = new Map((await backends()).map((pid) => [pid, cpuMsOf([pid])]))
    const storeBefore = cpuMsOf([store!.pid!])
    const clientBefore = process.cpuUsage()
    const started = performance.now()
    await Promise.all(
      Array.from({ length: n }, async (_, slot) => {
        for (let round = 0; round < rounds; round++) await shop(firstShopper[j]! + slot, slot, round, samples, n === 1).catch(() => undefined)
      }),
    )
    const wall = (performance.now() - started) / 1000
    // The level's background work counts in its CPU: the print files of the designs put in carts and the paid orders'
    // submissions run as jobs, some after the last shopper is done; the level's CPU is read once they have run.
    await levelJobsDone()
    const clientCpu = process.cpuUsage(clientBefore)
    const storeCpu = cpuMsOf([store!.pid!]) - storeBefore
    // Backends the pool opened during the level count from nothing.
    const pgCpu = (await backends()).reduce((sum, pid) => sum + cpuMsOf([pid]) - (pgBefore.get(pid) ?? 0), 0)
    for (const step of steps) {
      const of = samples.filter((s) => s.step === step)
      const ok = of
        .filter((s) => s.ok)
        .map((s) => s.ms)
        .sort((a, b) => a - b)
      const errors = of.length - ok.length
      totalErrors += errors
      for (const s of of) if (!s.ok && !firstErrors.has(`${n} ${step}`)) firstErrors.set(`${n} ${step}`, s.error!)
      lines.push(`| ${n} | ${step} | ${fmt(ok.length / wall)} | ${fmt(percentile(ok, 0.5))} | ${fmt(percentile(ok, 0.95))} | ${errors} |`)
    }
    const previews = samples
      .filter((s) => s.step === 'preview' && s.ok)
      .map((s) => s.ms)
      .sort((a, b) => a - b)
    const previewP95 = percentile(previews, 0.95)
    if (passedAt === null && previewP95 > PREVIEW_P95_LIMIT_MS) passedAt = n
    // The ceiling: the same composites, N at once, one per trip (the print composite of the design bought).
    const sharpRun = await ceilingInChild({ concurrency: n, total: Math.max(n * rounds, 2), photos: originals, shapes: [...shapes] })
    const sharpMs = [...sharpRun.ms].sort((a, b) => a - b)
    // The store's previews are spread over the shopping trip, between other steps: their rate is their
    // count over the time at least one preview was in flight (not the level's whole wall time).
    const busy = busySeconds(samples.filter((s) => s.step === 'preview'))
    const storeRate = busy > 0 ? previews.length / busy : 0
    const sharpRate = sharpRun.ms.length / (sharpRun.wallMs / 1000)
    totalErrors += sharpRun.errors
    const sharpP95 = percentile(sharpMs, 0.95)
    ratios.push(
      `| ${n} | ${fmt(storeRate)} | ${fmt(sharpRate)} | ${(storeRate / sharpRate).toFixed(2)} | ${fmt(previewP95)} | ${fmt(sharpP95)} | ${(previewP95 / sharpP95).toFixed(2)} | ${sharpRun.errors} |`,
    )
    const trips = samples.filter((s) => s.step === 'pay' && s.ok).length
    const perTrip = (ms: number) => (trips ? ms / trips : NaN)
    const machinePerTrip = perTrip(storeCpu + pgCpu + (clientCpu.user + clientCpu.system) / 1000)
    const sharpPerComposite = sharpRun.ms.length ? sharpRun.cpuMs / sharpRun.ms.length : NaN
    cpuLines.push(
      `| ${n} | ${fmt(perTrip(storeCpu))} | ${fmt(perTrip(pgCpu))} | ${fmt(perTrip((clientCpu.user + clientCpu.system) / 1000))} | ${fmt(machinePerTrip)} | ${fmt(sharpPerComposite)} | ${(sharpPerComposite / machinePerTrip).toFixed(2)} | ${(machinePerTrip / sharpPerComposite).toFixed(2)} |`,
    )
    console.log(`N=${n} done in ${wall.toFixed(1)} s`)
  }
  const loadAfter = os.loadavg()[0]!

  // The store's jobs after the last level: print files rendered once an item is in a cart, and each paid order's
  // parcels submitted to the print provider. Wait until no parcel is still 'paid', then count what was done.
  const waitStarted = performance.now()
  let pending = NaN
  for (;;) {
    const { rows } = await activity.query<{ n: string }>(`select count(*) as n from order_parcels where status = 'paid'`)
    pending = Number(rows[0]!.n)
    if (pending === 0 || performance.now() - waitStarted > 180_000) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const waited = (performance.now() - waitStarted) / 1000
  const paidOrders = (await activity.query<{ id: string; print_items: { previewId: string }[] }>('select id, print_items from orders')).rows
  const previewIds = [...new Set(paidOrders.flatMap((o) => o.print_items.map((item) => item.previewId)))]
  const previewRows = previewIds.length
    ? (await activity.query<{ id: string; design_hash: string | null }>('select id, design_hash from previews where id = any($1::uuid[])', [previewIds])).rows
    : []
  const printFilesKept = new Map<string, boolean>()
  for (const row of previewRows) {
    const sizes = await Promise.all(
      (['front', 'back'] as const).map((position) => storage.size(printFileKey({ id: row.id, designHash: row.design_hash }, position))),
    )
    printFilesKept.set(
      row.id,
      sizes.every((size) => size !== null && size > 0),
    )
  }
  const withPrintFiles = paidOrders.filter((o) => o.print_items.length > 0 && o.print_items.every((item) => printFilesKept.get(item.previewId) === true)).length
  const parcelRows = (
    await activity.query<{ order_id: string; status: string; provider_order_id: string | null }>(
      'select order_id, status, provider_order_id from order_parcels',
    )
  ).rows
  const reached = paidOrders.filter((o) => {
    const parcels = parcelRows.filter((p) => p.order_id === o.id)
    return parcels.length > 0 && parcels.every((p) => p.provider_order_id !== null && p.status !== 'paid' && p.status !== 'submission_failed')
  }).length
  await activity.end()
  const ordersMet = withPrintFiles === paidOrders.length && reached === paidOrders.length
  if (!ordersMet) totalErrors++
  console.log(
    `\nPaid orders: ${paidOrders.length}; with both print files kept: ${withPrintFiles}; reached the print provider: ${reached}` +
      ` — ${ordersMet ? 'goal met' : 'goal NOT met'} (${pending === 0 ? `the jobs were done ${waited.toFixed(1)} s after the last level` : `${pending} parcel(s) still 'paid' after ${waited.toFixed(0)} s`})`,
  )

  console.log('\nPer step (done/s: completed in the level ÷ the level’s wall time; latencies of the successful ones):\n')
  console.log(lines.join('\n'))
  console.log(
    '\nPreviews against plain sharp compositing the same front layers at the same concurrency (goal: preview p95 ≤ 0.25 × sharp p95 at N = 40, the column preview p95 ÷ sharp p95 ≤ 0.25):\n',
  )
  console.log(ratios.join('\n'))
  console.log(
    `\nCPU time per shopping trip (${previewsPerTrip} preview(s) and the other steps; the store, its PostgreSQL backends, this process making the requests) against one plain-sharp print composite’s: the ratio a saturated machine approaches, and steadier than the rates when the machine is shared. CPU ratio = sharp ÷ trip; trip ÷ sharp is its inverse (goal: trip CPU ≤ 1.2 × one plain-sharp print composite, i.e. trip ÷ sharp ≤ 1.2, CPU ratio ≥ 1/1.2 ≈ 0.83):\n`,
  )
  console.log(cpuLines.join('\n'))
  if (stepCpu.size > 0) {
    console.log(
      '\nThe store’s CPU time per step with one shopper alone (N = 1; mean over the trips; a step’s background work, such as an order’s jobs after paying, counts where it runs):\n',
    )
    console.log(
      [
        '| step | store CPU ms (mean) | trips |',
        '|---|---|---|',
        ...steps.map((step) => {
          const of = stepCpu.get(step) ?? []
          return `| ${step} | ${fmt(of.reduce((a, b) => a + b, 0) / of.length)} | ${of.length} |`
        }),
      ].join('\n'),
    )
  }
  console.log(
    `\nPreview p95 passes ${PREVIEW_P95_LIMIT_MS / 1000} s at: ${passedAt === null ? `no level measured (up to N = ${Math.max(...levels)})` : `N = ${passedAt}`}`,
  )
  console.log(`Errors in all: ${totalErrors}${totalErrors ? ' — goal 0 NOT met' : ' — goal 0 met'}`)
  for (const [where, message] of firstErrors) console.log(`  first error at N=${where}: ${message}`)
  console.log(
    `Load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores (above 1–2: other work shared the machine).`,
  )
  if (totalErrors) process.exitCode = 1

  /** Seconds during which at least one of the samples was in flight (the union of their intervals). */
  function busySeconds(of: Sample[]) {
    const spans = of.map((s) => [s.start, s.start + s.ms] as const).sort((a, b) => a[0] - b[0])
    let total = 0
    let end = -Infinity
    for (const [from, to] of spans) {
      if (from > end) {
        total += to - from
        end = to
      } else if (to > end) {
        total += to - end
        end = to
      }
    }
    return total / 1000
  }
}
