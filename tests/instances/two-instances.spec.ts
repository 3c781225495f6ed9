import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { consentGranted } from '../../playwright.config'
import pg from 'pg'
import { createClient } from 'redis'
import sharp from 'sharp'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { pseudoTemplates, variantOfShape } from '../../app/catalogue/ornaments'
import { s3Storage } from '../../app/api/storage/s3'
import { cartItemFor, putPlaceholderPrintFiles, testAddress } from '../support/cart'
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy'
import { startS3Server, type S3Server } from '../support/s3-server'
import { freePort, freshStore, type Store } from '../support/server-process'
import { designStarAndAddToCart, signInAs, waitForHydration } from '../e2e/support'
import { INSTANCES_PROXY_PORT } from '../../playwright.instances.config'

/**
 * The production shape, proven: two store instances (`scripts/serve.ts`, the production build) on one
 * PostgreSQL database, one Redis database and one S3 bucket (s3rver behind a SigV4-checking front),
 * behind a round-robin proxy that sets X-Forwarded-For (the instances run with TRUST_PROXY=1). The
 * browser only ever talks to the proxy, so consecutive requests land on different instances.
 * The suite makes its own database and uses its own Redis database number, and removes both.
 */
const REDIS_DB = 12
const REDIS_URL = `redis://127.0.0.1:6379/${REDIS_DB}`
const POSTGRES = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const SESSION_SECRET = 'two-instances-session-secret-0123456789abcdef'

type Instance = { name: string; port: number; child: ChildProcess; log: string[] }

let store: Store | undefined
let s3: S3Server | undefined
let proxy: RoundRobinProxy | undefined
const instances: Instance[] = []
/** What instances a and b were started with (their ports and settings), so either can be started again the same way. */
let instanceSettings: { ports: number[]; env: Record<string, string> } | undefined

async function answers(what: 'postgres' | 'redis') {
  try {
    if (what === 'postgres') {
      const client = new pg.Client({ connectionString: POSTGRES, connectionTimeoutMillis: 3000 })
      await client.connect()
      await client.end()
    } else {
      const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 3000, reconnectStrategy: false } })
      await client.connect()
      await client.destroy()
    }
    return true
  } catch {
    return false
  }
}

async function flushRedis() {
  const client = createClient({ url: REDIS_URL })
  await client.connect()
  await client.flushDb()
  await client.destroy()
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: store!.databaseUrl! })
  await client.connect()
  try {
    return (await client.query<T>(sql, params)).rows
  } finally {
    await client.end()
  }
}

async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), `keepsake-${name}-`))
  const log: string[] = []
  const child = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (chunk: Buffer) => log.push(chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()))
  child.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }))
  const ready = Date.now() + 120_000
  while (Date.now() < ready) {
    if (log.join('').includes('Album API ready')) return { name, port, child, log }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 250))
  }
  child.kill('SIGKILL')
  throw new Error(`instance ${name} did not start:\n${log.join('')}`)
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(240_000)
  const missing = [!(await answers('postgres')) && `PostgreSQL at ${POSTGRES}`, !(await answers('redis')) && `Redis at ${REDIS_URL}`].filter(Boolean)
  // On CI (this machine) both run; elsewhere the suite says what it needs instead of failing on a missing service.
  if (missing.length && !process.env.CI) test.skip(true, `the two-instance suite needs ${missing.join(' and ')}`)
  if (missing.length) throw new Error(`the two-instance suite needs ${missing.join(' and ')}`)

  process.env.TEST_DATABASE_URL = POSTGRES
  store = await freshStore('postgres')
  await flushRedis()
  // Browsers PUT uploads to it from the store's origin and read photos from it: CORS for the proxy's origin, public reads.
  s3 = await startS3Server({ bucket: 'keepsake-two-instances', corsOrigins: [`http://localhost:${INSTANCES_PROXY_PORT}`], publicRead: true })
  // The proxy's port is the store's public address, so it is chosen before the instances start.
  const ports = [await freePort(), await freePort()]
  proxy = await startRoundRobinProxy(
    [
      { name: 'a', port: ports[0]! },
      { name: 'b', port: ports[1]! },
    ],
    { port: INSTANCES_PROXY_PORT },
  )
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL: store.databaseUrl!,
    REDIS_URL,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_PUBLIC_URL: `${s3.endpoint}/${s3.bucket}`,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    TRUST_PROXY: '1',
    PUBLIC_URL: proxy.url,
    SESSION_SECRET,
    DEMO_MODE: 'true',
    LOCAL_FULFILMENT_STEP_SECONDS: '2',
    JOB_LEASE_SECONDS: '3',
  }
  instanceSettings = { ports, env }
  // One after the other: the first seeds the demo families, the second finds them.
  for (const i of [0, 1]) await startInstanceAgain(i)
  await proxy.waitUntilRouting(['a', 'b'])
})

/** Starts instance a (0) or b (1) with the settings of the suite's first start, in place of the one before (stopped). */
async function startInstanceAgain(i: number) {
  const name = ['a', 'b'][i]!
  instances[i] = await startInstance(name, instanceSettings!.ports[i]!, instanceSettings!.env)
  return instances[i]!
}

/** SIGTERM to an instance; answers how it ended. */
async function stopInstance(instance: Instance) {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return { code: instance.child.exitCode, signal: instance.child.signalCode }
  const exited = once(instance.child, 'exit')
  instance.child.kill('SIGTERM')
  const [code, signal] = (await exited) as [number | null, string | null]
  return { code, signal }
}

test.afterAll(async () => {
  for (const instance of instances) {
    if (instance.child.exitCode === null && instance.child.signalCode === null) {
      instance.child.kill('SIGTERM')
      await once(instance.child, 'exit')
    }
  }
  await proxy?.close()
  await s3?.close()
  if (store) {
    await flushRedis().catch(() => {})
    await store.drop()
  }
})

async function fillAddress(page: Page) {
  await page.getByLabel('Address line 1').fill('12 Holly Lane')
  await page.getByLabel('City').fill('Portland')
  await page.getByLabel('State').selectOption('OR')
  await page.getByLabel('ZIP code').fill('97201')
}

/** Pays the cart on the local hosted checkout page; answers the order reference. */
async function checkOut(page: Page, firstName: string) {
  await page.getByRole('button', { name: 'Checkout' }).click()
  await expect(page).toHaveURL(/\/utils\/checkout\/[0-9a-f-]{36}$/)
  await waitForHydration(page)
  await fillAddress(page)
  await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Thank you, ${firstName}!`, { timeout: 30_000 })
  return (await page.getByTestId('order-reference').textContent())!
}

const orderStatus = async (reference: string) =>
  (await query<{ status: string }>(`select status from orders where reference = $1`, [reference]))[0]?.status ?? null

test('a shopper buys through the proxy while consecutive requests land on both instances', async ({ page }) => {
  test.setTimeout(300_000)
  const before = { ...proxy!.answered }
  await page.goto(proxy!.url)
  await signInAs(page, 'Maya Rivera')

  await test.step('uploads a photo: the browser PUTs it to the bucket with the URL an instance signed', async () => {
    await page.goto(`${proxy!.url}/photo-products/photos`)
    await waitForHydration(page)
    const uploaded = page.getByRole('list', { name: 'Your uploaded photos' }).getByRole('button')
    const jpeg = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#2f6f8f' } })
      .jpeg()
      .toBuffer()
    await page.getByTestId('photo-upload-input').setInputFiles([{ name: 'Lake day.jpg', mimeType: 'image/jpeg', buffer: jpeg }])
    await expect(uploaded).toHaveCount(1, { timeout: 30_000 })
    const img = page.getByRole('list', { name: 'Your uploaded photos' }).locator('img').first()
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true)
    expect(s3!.requests.some((r) => r.method === 'PUT' && r.url.includes('?') && r.url.includes('X-Amz-Signature'))).toBe(true)
  })

  await test.step('designs, previews, adds to the cart and pays', async () => {
    await page.goto(proxy!.url)
    await designStarAndAddToCart(page)
  })
  const reference = await checkOut(page, 'Maya')

  await test.step('the order moves through production, driven by jobs either instance may run', async () => {
    await expect.poll(() => orderStatus(reference), { timeout: 60_000 }).toBe('shipped')
    await page.goto(`${proxy!.url}/photo-products/orders`)
    const card = page.getByTestId('order-card').filter({ hasText: reference })
    await expect(card.getByRole('list', { name: 'Order progress' })).toContainText('Shipped')
  })

  const served = { a: proxy!.answered.a! - before.a!, b: proxy!.answered.b! - before.b! }
  console.log(`two instances: the purchase path made ${served.a + served.b} requests: ${served.a} answered by a, ${served.b} by b`)
  // Round robin: neither instance carried the path alone.
  expect(served.a).toBeGreaterThan(20)
  expect(served.b).toBeGreaterThan(20)
})

test('a referral reward, held for days, is credited once when its job falls due with both instances draining', async ({ browser, page }) => {
  test.setTimeout(300_000)
  await page.goto(proxy!.url)
  await signInAs(page, 'Maya Rivera')
  await page.goto(`${proxy!.url}/referral`)
  await waitForHydration(page)
  const code = (await page.getByTestId('referral-code').textContent())!.trim()

  const friendContext = await browser.newContext({ baseURL: proxy!.url, storageState: consentGranted })
  const friend = await friendContext.newPage()
  await test.step('a new family claims Maya’s invite and pays for a star', async () => {
    await friend.goto(`/utils/demo-sign-in?redirect=${encodeURIComponent(`/referral/redeem?code=${code}`)}`)
    await waitForHydration(friend)
    await friend.getByRole('button', { name: 'Sign in as a new family' }).click()
    await expect(friend).toHaveURL(/\/referral\/redeem(\?|$)/)
    await waitForHydration(friend)
    await friend.getByRole('button', { name: 'Claim my $10' }).click()
    await expect(friend.getByTestId('redeem-success')).toContainText('$10.00 from Maya is in your account')
    await designStarAndAddToCart(friend)
    await friend.getByRole('button', { name: 'Checkout' }).click()
    await expect(friend).toHaveURL(/\/utils\/checkout\/[0-9a-f-]{36}$/)
    await waitForHydration(friend)
    await friend.getByLabel('Full name').fill('Friend Guest')
    await fillAddress(friend)
    await friend.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
    await friend.getByRole('button', { name: /^Pay / }).click()
    await expect(friend.getByRole('heading', { level: 1 })).toHaveText(/^Thank you, /, { timeout: 30_000 })
    const reference = (await friend.getByTestId('order-reference').textContent())!
    await expect.poll(() => orderStatus(reference), { timeout: 60_000 }).toBe('shipped')
  })
  await friendContext.close()

  // The paid order approved the reward and queued its credit REWARD_HOLD_DAYS ahead. The suite cannot wait days:
  // it moves the job's due time to now, as the clock would, and lets the instances race for it.
  const [redemption] = await query<{ id: string; advocate_user_id: string }>(
    `select r.id, r.advocate_user_id from referral_redemptions r where r.code = $1 and r.status = 'approved'`,
    [code],
  )
  expect(redemption, 'the friend’s paid order approved the reward').toBeTruthy()
  const due = await query<{ id: string }>(`update jobs set run_at = now() where kind = 'credit-referral-reward' and status = 'queued' returning id`)
  expect(due).toHaveLength(1)
  await expect
    .poll(async () => (await query<{ status: string }>(`select status from jobs where id = $1`, [due[0]!.id]))[0]?.status, { timeout: 30_000 })
    .toBe('done')
  const [job] = await query<{ attempts: number }>(`select attempts from jobs where id = $1`, [due[0]!.id])
  const credits = await query<{ amount_cents: number }>(
    `select amount_cents from credit_entries where user_id = $1 and reason = 'referral_reward' and reference = $2`,
    [redemption!.advocate_user_id, `redemption:${redemption!.id}`],
  )
  const [status] = await query<{ status: string }>(`select status from referral_redemptions where id = $1`, [redemption!.id])
  console.log(`two instances: the referral reward's credit job ran ${job!.attempts} time(s); Maya's ledger has ${credits.length} reward entry`)
  expect(job!.attempts).toBe(1)
  expect(credits).toEqual([{ amount_cents: 1000 }])
  expect(status!.status).toBe('credited')
})

test('a rate limit is counted across both instances', async ({ request }) => {
  // 60 demo guests per address an hour: the 61st is refused whichever instance it reaches. The proxy reports a
  // shopper's address of its own (the browser tests' new families came from 127.0.0.1); a client cannot set it.
  const before = { ...proxy!.answeredByPath.a }
  const statuses: number[] = []
  proxy!.setClientAddress('198.51.100.7')
  try {
    for (let i = 0; i < 61; i++) statuses.push((await request.post(`${proxy!.url}/v1/demo/guests`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status())
  } finally {
    proxy!.setClientAddress(undefined)
  }
  expect(statuses.slice(0, 60).every((s) => s === 201)).toBe(true)
  expect(statuses[60]).toBe(429)
  // The limit is that address's: a shopper elsewhere still gets in.
  expect((await request.post(`${proxy!.url}/v1/demo/guests`)).status()).toBe(201)
  const onA = (proxy!.answeredByPath.a!['/v1/demo/guests'] ?? 0) - (before['/v1/demo/guests'] ?? 0)
  expect(onA).toBeGreaterThanOrEqual(30)
  expect(onA).toBeLessThanOrEqual(31)
  console.log(`two instances: 61 guest sign-ups, ${onA} on a and ${61 - onA} on b; the 61st was refused (429)`)
})

test('each job runs once with both instances draining the queue', async () => {
  const jobs = await query<{ kind: string; status: string; attempts: number; n: string }>(
    `select kind, status, attempts, count(*) as n from jobs where run_at <= now() group by kind, status, attempts order by kind`,
  )
  // What is not due yet waits its turn (an invite's expiry, 30 days out), unclaimed.
  const later = await query<{ kind: string; status: string; attempts: number }>(`select kind, status, attempts from jobs where run_at > now()`)
  for (const row of later) expect(row, row.kind).toMatchObject({ status: 'queued', attempts: 0 })
  console.log(`two instances: jobs ${JSON.stringify(jobs)}`)
  expect(jobs.length).toBeGreaterThan(0)
  // Every job finished, each claimed exactly once (attempts counts claims).
  for (const row of jobs.filter((j) => j.kind !== 'prune-previews')) expect(row, `${row.kind}`).toMatchObject({ status: 'done', attempts: 1 })
  const kinds = new Set(jobs.map((j) => j.kind))
  for (const kind of ['submit-order', 'advance-order', 'send-email', 'credit-referral-reward']) expect(kinds, kind).toContain(kind)
  // One e-mail per event: the outbox's reference is unique, and each was sent once.
  const mails = await query<{ reference: string; status: string; n: string }>(
    `select reference, status, count(*) as n from outbox_emails where send_after <= now() group by reference, status`,
  )
  expect(mails.length).toBeGreaterThan(0)
  for (const mail of mails) expect(mail).toMatchObject({ status: 'sent', n: '1' })
})

test('killing an instance with SIGKILL mid-run loses nothing: the other finishes the work', async ({ page }) => {
  test.setTimeout(300_000)
  await page.goto(proxy!.url)
  await signInAs(page, 'Sam Okafor')
  await designStarAndAddToCart(page)
  const reference = await checkOut(page, 'Sam')

  // The order is paid and its production steps are queued, 2 s apart: kill one instance now.
  const victim = instances[0]!
  victim.child.kill('SIGKILL')
  await once(victim.child, 'exit')
  expect(await orderStatus(reference)).not.toBe('shipped')

  // The shopper carries on through the proxy, and the survivor finishes the production steps.
  await page.goto(`${proxy!.url}/photo-products/orders`)
  await expect(page.getByTestId('order-card').filter({ hasText: reference })).toBeVisible()
  await expect.poll(() => orderStatus(reference), { timeout: 90_000 }).toBe('shipped')
  expect(proxy!.down.has('a')).toBe(true)

  // Every job that fell due is finished, in time: the shipping e-mail queued as the order ships may still be running
  // on the survivor, or held by the killed instance until its lease runs out and the survivor takes it over.
  const unfinished = () =>
    query<{ kind: string; status: string; dedupe_key: string }>(
      `select kind, status, dedupe_key from jobs where status <> 'done' and kind <> 'prune-previews' and run_at <= now()`,
    )
  await expect.poll(unfinished, { timeout: 150_000 }).toEqual([])
  // Its confirmation and its shipping e-mail were each sent, once.
  const [order] = await query<{ id: string }>(`select id from orders where reference = $1`, [reference])
  const mailsOf = () =>
    query<{ reference: string; status: string }>(`select reference, status from outbox_emails where reference in ($1, $2) order by reference`, [
      `order-confirmation:${order!.id}`,
      `order-shipped:${order!.id}`,
    ])
  await expect.poll(async () => (await mailsOf()).map((m) => m.status), { timeout: 30_000 }).toEqual(['sent', 'sent'])
  const lost = await query<{ n: string }>(`select count(*) as n from jobs where status in ('queued', 'running') and run_at < now() - interval '30 seconds'`)
  console.log(`two instances: after SIGKILL of a, order ${reference} shipped on b; e-mails sent: 2 of 2; jobs lost: ${lost[0]!.n}`)
  expect(lost[0]!.n).toBe('0')
})

test('the store and the API apart: a store whose API_BASE_URL is another process sells through it', async ({ browser }) => {
  test.setTimeout(300_000)
  // The API alone (`npm run start:api`) on its own database, addressed by browsers through the store.
  const apiStore = await freshStore('postgres')
  const [apiPort, storePort] = [await freePort(), await freePort()]
  const storeUrl = `http://localhost:${storePort}`
  const apiDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-api-alone-'))
  const storeDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-store-alone-'))
  const common = { NODE_ENV: 'production', SESSION_SECRET, DEMO_MODE: 'true', LOCAL_FULFILMENT_STEP_SECONDS: '2', PUBLIC_URL: storeUrl }
  const apiLog: string[] = []
  const apiProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/serve-api.ts'], {
    env: { ...process.env, ...common, DATABASE_URL: apiStore.databaseUrl!, DATA_DIR: apiDataDir, PORT: String(apiPort), TRUST_PROXY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  apiProcess.stdout!.on('data', (chunk: Buffer) => apiLog.push(chunk.toString()))
  apiProcess.stderr!.on('data', (chunk: Buffer) => apiLog.push(chunk.toString()))
  let storeProcess: Instance | undefined
  try {
    await expect.poll(() => apiLog.join('').includes('Keepsake album API on port'), { timeout: 120_000 }).toBe(true)
    storeProcess = await startInstance('store-alone', storePort, { ...common, API_BASE_URL: `http://127.0.0.1:${apiPort}`, DATA_DIR: storeDataDir })

    const context = await browser.newContext({ baseURL: storeUrl, storageState: consentGranted, viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const crossOrigin: string[] = []
    page.on('request', (request) => {
      const origin = new URL(request.url()).origin
      if (origin !== storeUrl && !request.url().startsWith('data:') && !request.url().startsWith('blob:')) crossOrigin.push(request.url())
    })
    await signInAs(page, 'Maya Rivera')
    // The live designer's base images, the photos and the preview all come through the store's /v1.
    await designStarAndAddToCart(page)
    const reference = await checkOut(page, 'Maya')
    const apiOrder = async () => {
      const client = new pg.Client({ connectionString: apiStore.databaseUrl! })
      await client.connect()
      try {
        return (await client.query<{ status: string }>(`select status from orders where reference = $1`, [reference])).rows[0]?.status ?? null
      } finally {
        await client.end()
      }
    }
    await expect.poll(apiOrder, { timeout: 60_000 }).toBe('shipped')
    // The store's own /v1 answers from the API's database (the orders it lists are the API's).
    const orders = await page.request.get(`${storeUrl}/v1/photo-products-orders`)
    expect(orders.status()).toBe(200)
    expect(JSON.stringify(await orders.json())).toContain(reference)
    // The bundles shelf: the browser fetched it from the store, and it is not empty.
    const bundles = await page.request.get(`${storeUrl}/v1/loop/bundles`)
    expect(bundles.status()).toBe(200)
    expect(crossOrigin).toEqual([])
    // The store opened no database of its own.
    expect(fs.existsSync(path.join(storeDataDir, 'pglite'))).toBe(false)
    await context.close()

    // Both stop cleanly on SIGTERM.
    for (const child of [storeProcess.child, apiProcess]) {
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      const [code, signal] = (await exited) as [number | null, string | null]
      expect({ code, signal }).toEqual({ code: 0, signal: null })
    }
    console.log(`the store and the API apart: order ${reference} bought through a store forwarding /v1; both processes stopped on SIGTERM with exit 0`)
  } finally {
    for (const child of [storeProcess?.child, apiProcess]) if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await apiStore.drop()
    fs.rmSync(apiDataDir, { recursive: true, force: true })
    fs.rmSync(storeDataDir, { recursive: true, force: true })
  }
})

test.describe('Printify as the print provider', () => {
  test('a Printify order moves to shipped from webhook events alone, sent through the proxy', async ({ browser }) => {
    test.setTimeout(300_000)
    // Its own pair of instances, on their own database, with the Printify stand-in (over HTTP) as the print provider
    // and the store's webhooks subscribed by the script's code. The poll is a day away: only webhooks can move the order.
    const { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } = await import('../support/printify-mock')
    const { PrintifyClient, syncPrintifyWebhooks } = await import('../../app/api/providers/print/printify')
    const secret = 'two-instances-printify-webhook-secret'
    const printify = createPrintifyMock()
    const printifyServer = await printify.listen()
    const printifyStore = await freshStore('postgres')
    const ports = [await freePort(), await freePort()]
    const printifyProxy = await startRoundRobinProxy(
      [
        { name: 'pa', port: ports[0]! },
        { name: 'pb', port: ports[1]! },
      ],
      { port: await freePort() },
    )
    // One DATA_DIR for both: without a bucket, previews are files both instances must read.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-printify-pair-'))
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: printifyStore.databaseUrl!,
      DATA_DIR: dataDir,
      TRUST_PROXY: '1',
      PUBLIC_URL: printifyProxy.url,
      SESSION_SECRET,
      DEMO_MODE: 'true',
      JOB_LEASE_SECONDS: '3',
      PRINTIFY_API_TOKEN: MOCK_PRINTIFY_TOKEN,
      PRINTIFY_SHOP_ID: String(MOCK_PRINTIFY_SHOP_ID),
      PRINTIFY_API_URL: printifyServer.url,
      PRINTIFY_WEBHOOK_SECRET: secret,
      PRINTIFY_POLL_MINUTES: '1440',
      // The local checkout pays the stand-in's orders: allowed on purpose.
      ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'true',
    }
    const pair: Instance[] = []
    const db = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: printifyStore.databaseUrl! })
      await client.connect()
      try {
        return (await client.query<T>(sql, params)).rows
      } finally {
        await client.end()
      }
    }
    try {
      for (const [i, name] of ['pa', 'pb'].entries()) pair.push(await startInstance(name, ports[i]!, env))
      await printifyProxy.waitUntilRouting(['pa', 'pb'])
      const client = new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, baseUrl: printifyServer.url })
      await syncPrintifyWebhooks(client, `${printifyProxy.url}/v1/webhooks/printify`, secret)

      const context = await browser.newContext({ baseURL: printifyProxy.url, storageState: consentGranted, viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      await signInAs(page, 'Maya Rivera')
      await designStarAndAddToCart(page)
      const reference = await checkOut(page, 'Maya')
      const orderOf = async () =>
        (
          await db<{ id: string; status: string; provider_order_id: string | null; tracking_number: string | null; tracking_url: string | null }>(
            `select id, status, provider_order_id, tracking_number, tracking_url from orders where reference = $1`,
            [reference],
          )
        )[0]
      await expect.poll(async () => (await orderOf())?.provider_order_id ?? null, { timeout: 60_000 }).not.toBeNull()
      const order = (await orderOf())!
      expect(order).toMatchObject({ status: 'submitted' })
      expect(printify.orders.get(order.provider_order_id!)?.external_id).toBe(order.id)
      // Printify holds an order the API submits until the store sends it to production, which a job of the store's does:
      // Printify moves it on only after that (the store has recorded it), as a shop's order does.
      const sentToProduction = async () =>
        (await db<{ at: Date | null }>(`select sent_to_production_at as at from order_parcels where order_id = $1`, [order.id]))[0]?.at ?? null
      await expect.poll(sentToProduction, { timeout: 60_000 }).not.toBeNull()

      // Printify's side: production, then a shipment. Each event goes to the proxy, which hands it to either instance.
      const produced = await printify.advanceOrder(order.provider_order_id!, 'sent-to-production')
      expect(produced.map((a) => a.status)).toEqual([200, 200])
      expect((await orderOf())!.status).toBe('in_production')
      const shipment = printify.stepOrder(order.provider_order_id!, 'shipped', { number: '9400111899223456789012' })
      const shipped = []
      for (const event of shipment) shipped.push(await printify.send(event))
      expect(shipped.map((a) => a.status)).toEqual([200, 200])
      // Printify redelivers the shipment (same event id): it changes nothing.
      const again = await printify.send(shipment.at(-1)!)
      expect(JSON.parse(again.body)).toMatchObject({ outcome: 'duplicate' })
      expect(await orderOf()).toMatchObject({
        status: 'shipped',
        tracking_number: '9400111899223456789012',
        tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223456789012',
      })
      // Moved by webhooks alone: the store looked the order up only to send it to production (it was on hold), never
      // afterwards to learn where it was, and sent it once. A send-to-production job taken over by the other instance (a
      // 3 s lease on a loaded machine) looks the order up again and, finding it no longer on hold, sends nothing (a
      // fresh-clone CI run saw two lookups).
      const orderPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders/${order.provider_order_id}`
      const lookups = printify.calls.flatMap((c, i) => (c.method === 'GET' && c.path === `${orderPath}.json` ? [i] : []))
      const sends = printify.calls.flatMap((c, i) => (c.method === 'POST' && c.path === `${orderPath}/send_to_production.json` ? [i] : []))
      expect(sends).toHaveLength(1)
      expect(lookups.length).toBeGreaterThanOrEqual(1)
      expect(lookups[0]!).toBeLessThan(sends[0]!)
      const hooks = ['pa', 'pb'].map((name) => printifyProxy.answeredByPath[name]!['/v1/webhooks/printify'] ?? 0)
      expect(hooks[0]! + hooks[1]!).toBe(5)
      // The shopper hears once, with the link.
      await expect
        .poll(
          async () =>
            (await db<{ status: string }>(`select status from outbox_emails where reference = $1`, [`order-shipped:${order.id}`])).map((m) => m.status),
          {
            timeout: 30_000,
          },
        )
        .toEqual(['sent'])
      await page.goto(`${printifyProxy.url}/photo-products/orders`)
      await expect(page.getByTestId('order-card').filter({ hasText: reference }).getByRole('list', { name: 'Order progress' })).toContainText('Shipped')
      console.log(`two instances with Printify: order ${reference} shipped from 5 webhook deliveries (${hooks[0]} on pa, ${hooks[1]} on pb); e-mails sent: 1`)
      await context.close()
    } finally {
      for (const instance of pair)
        if (instance.child.exitCode === null && instance.child.signalCode === null) {
          instance.child.kill('SIGTERM')
          await once(instance.child, 'exit')
        }
      await printifyProxy.close()
      await printifyServer.close()
      await printifyStore.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

test('a rolling restart under load loses no request: each instance drains on SIGTERM and comes back', async () => {
  test.setTimeout(600_000)
  const names = ['a', 'b'] as const
  // An earlier test killed a: the rotation starts from both instances up.
  for (const i of [0, 1]) if (instances[i]!.child.exitCode !== null || instances[i]!.child.signalCode !== null) await startInstanceAgain(i)
  await proxy!.waitUntilRouting([...names])

  const bucketBase = `${s3!.endpoint}/${s3!.bucket}`
  const fixtureStorage = s3Storage({
    bucket: s3!.bucket,
    endpoint: s3!.endpoint,
    region: s3!.region,
    accessKeyId: s3!.accessKeyId,
    secretAccessKey: s3!.secretAccessKey,
  })
  /** A preview record as generate-preview writes it (the cart accepts only the shopper's own); rendering is not what is tested. */
  async function previewFor(userId: string) {
    const id = randomUUID()
    const variant = variantOfShape('star')
    const url = (file: string) => `${bucketBase}/previews/${id}/${file}`
    const photoIds = [randomUUID(), randomUUID()]
    const sourceImages = photoIds.map((photoId, i) => ({
      cropped: `/v1/media/previews/${id}/source-${i}.jpg`,
      original: `${bucketBase}/photos/${photoId}/smartphone.jpg`,
    }))
    await query(
      `insert into previews (id, user_id, variant_id, pseudo_template_id, back_side_id, design, print_areas, source_images, images, provider, provider_product_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'local', $10)`,
      [
        id,
        userId,
        variant.id,
        pseudoTemplates.star.id,
        `${variant.id}-3`,
        JSON.stringify(photoIds.map((photoId, i) => ({ cellId: `star-${i ? 'right' : 'left'}`, photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } }))),
        JSON.stringify([
          { position: 'front', imageUrl: url('front.png') },
          { position: 'back', imageUrl: url('back.png') },
        ]),
        JSON.stringify(sourceImages),
        JSON.stringify([url('mockup-front.jpg'), url('mockup-back.jpg')]),
        id,
      ],
    )
    // Its print files, where a render would keep them: a parcel is never submitted without them.
    await putPlaceholderPrintFiles(fixtureStorage, id)
    return { id, variantId: variant.id, url, sourceImages }
  }

  type Sent = { what: string; status: number | null; error?: string }
  const sent: Sent[] = []
  const failures: Sent[] = []
  /** One request through the proxy; anything but the expected status (or no answer at all) is a failure. */
  async function send(cookie: string, method: string, path: string, expected: number, json?: unknown) {
    const what = `${method} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`
    let outcome: Sent
    let body: any = null
    try {
      const res = await fetch(`${proxy!.url}${path}`, {
        method,
        headers: { cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      })
      const text = await res.text()
      body = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text
      outcome = { what, status: res.status, ...(res.status === expected ? {} : { error: text.slice(0, 300) }) }
    } catch (error) {
      outcome = { what, status: null, error: String((error as Error).cause ?? error) }
    }
    sent.push(outcome)
    if (outcome.error !== undefined) failures.push(outcome)
    return outcome.error === undefined ? body : null
  }

  // Each loop is a shopper of its own (a demo guest), buying one star after another on the local checkout. A shopper
  // may start 30 checkouts an hour (checkoutRateLimits.sessionsPerUser, issue 42 item 15): a loop that has started 25
  // goes on as a new guest, as a real crowd of shoppers would, so the load never meets the limit.
  const LOOPS = 4
  const CHECKOUTS_PER_SHOPPER = 25
  /** Every guest the loops bought as, for the count of their orders at the end. */
  const everyShopper: string[] = []
  const newShopper = async () => {
    const res = await fetch(`${proxy!.url}/v1/demo/guests`, { method: 'POST' })
    expect(res.status).toBe(201)
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const userId = ((await res.json()) as { user: { id: string } }).user.id
    everyShopper.push(userId)
    return { cookie, userId }
  }
  const shoppers: { cookie: string; userId: string }[] = []
  for (let i = 0; i < LOOPS; i++) shoppers.push(await newShopper())
  let stop = false
  let orders = 0
  const loop = async (first: { cookie: string; userId: string }) => {
    let { cookie, userId } = first
    let checkouts = 0
    while (!stop) {
      if (checkouts === CHECKOUTS_PER_SHOPPER) {
        const next = await newShopper().catch((error: Error) => {
          failures.push({ what: 'a new demo guest', status: null, error: error.message })
          stop = true
          return null
        })
        if (!next) return
        ;({ cookie, userId } = next)
        checkouts = 0
      }
      const preview = await previewFor(userId).catch((error: Error) => {
        failures.push({ what: 'record a preview', status: null, error: error.message })
        stop = true
        return null
      })
      if (!preview) return
      if (!(await send(cookie, 'POST', '/v1/photo-products-cart/items', 201, cartItemFor(preview)))) continue
      await send(cookie, 'GET', '/v1/photo-products-cart', 200)
      checkouts++
      const session = await send(cookie, 'POST', '/v1/photo-products-cart/checkout-session', 201)
      if (!session) continue
      const paid = await send(cookie, 'POST', `/v1/checkout/local/${session.id}/pay`, 200, {
        cardNumber: LOCAL_TEST_CARDS.succeeds,
        shippingAddress: testAddress,
      })
      if (paid) orders++
    }
  }
  const counts = () => ({ a: proxy!.answered.a!, b: proxy!.answered.b! })
  /** Waits until the load has reached each named instance `n` more times than in `since`. */
  const loadReaches = async (since: Record<string, number>, which: readonly string[], n: number) => {
    await expect.poll(() => which.every((name) => proxy!.answered[name]! - since[name]! >= n) || failures.length > 0, { timeout: 120_000 }).toBe(true)
    expect(failures).toEqual([])
  }

  const start = counts()
  const loops = shoppers.map(loop)
  const phases: { phase: string; a: number; b: number }[] = []
  const exits: Record<string, { code: number | null; signal: string | null }> = {}
  try {
    await loadReaches(start, names, 20)
    const beforeRestart = counts()
    phases.push({ phase: 'before the restart', a: beforeRestart.a - start.a, b: beforeRestart.b - start.b })

    for (const [i, name] of names.entries()) {
      const other = names[1 - i]!
      const atStop = counts()
      // SIGTERM under load: a refuses new connections at once, finishes what it was answering, and exits 0.
      exits[name] = await stopInstance(instances[i]!)
      expect(exits[name], `${name} ended`).toEqual({ code: 0, signal: null })
      const stopped = counts()
      // Meanwhile the other instance carried the load alone.
      await loadReaches(stopped, [other], 10)
      const alone = counts()
      expect(alone[name], `nothing reached ${name} while it was stopped`).toBe(stopped[name])
      await startInstanceAgain(i)
      await proxy!.waitUntilRouting([name], 60_000)
      const back = counts()
      await loadReaches(back, [name], 10)
      const after = counts()
      phases.push({ phase: `${name} stopped and started again`, a: after.a - atStop.a, b: after.b - atStop.b })
    }

    const afterRestart = counts()
    await loadReaches(afterRestart, names, 20)
    const end = counts()
    phases.push({ phase: 'after the restart', a: end.a - afterRestart.a, b: end.b - afterRestart.b })
  } finally {
    stop = true
    await Promise.all(loops)
  }

  const total = counts()
  console.log(
    `rolling restart under load: ${sent.length} requests in ${LOOPS} loops as ${everyShopper.length} shoppers (${orders} orders paid), ${failures.length} failed; ` +
      `${total.a - start.a} answered by a, ${total.b - start.b} by b; sent again after a refused/reset connection: a ${proxy!.retried.a}, b ${proxy!.retried.b}; ` +
      `exits ${JSON.stringify(exits)}\n${phases.map((p) => `  ${p.phase}: a ${p.a}, b ${p.b}`).join('\n')}`,
  )
  expect(failures).toEqual([])
  expect(exits).toEqual({ a: { code: 0, signal: null }, b: { code: 0, signal: null } })
  // The load reached both instances before the restart and both (restarted) instances after it.
  for (const phase of [phases[0]!, phases.at(-1)!]) {
    expect(phase.a, phase.phase).toBeGreaterThanOrEqual(20)
    expect(phase.b, phase.phase).toBeGreaterThanOrEqual(20)
  }
  expect(orders).toBeGreaterThan(0)
  // Every paid order is there once.
  const [paidOrders] = await query<{ n: string }>(`select count(*) as n from orders where user_id = any($1::uuid[])`, [everyShopper])
  expect(Number(paidOrders!.n)).toBe(orders)
})
