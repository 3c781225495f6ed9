/**
 * Crash tests: a real server process (scripts/serve-api.ts) is SIGKILLed at
 * crash points of a payment and of each job kind, then started again on the same data, on PGlite and on
 * PostgreSQL. After the restarts: one order, each step once, the chain of steps goes on, every job done.
 * The data is prepared in-process on the same store, which is closed before a server process opens it.
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq } from 'drizzle-orm'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { creditEntries, egifts, jobs, orderParcels, orders, outboxEmails, previews } from '../../app/api/db/schema'
import { PrintifyClient, PrintifyProvider } from '../../app/api/providers/print/printify'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { ADVOCATE_REWARD_CENTS } from '../../app/catalogue/referral-terms'
import { cartItemFor, recordPreview } from '../support/cart'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../support/printify-mock'
import { fulfilmentJobs } from '../../app/api/services/fulfilment'
import { drainJobs } from '../../app/api/services/jobs'
import { mailJobs } from '../../app/api/services/mail'
import { PRINT_POSITIONS, printFileKey } from '../../app/api/services/print-files'
import { freshStore, killServers, startServer, type Store } from '../support/server-process'
import { startSmtpCapture } from '../support/smtp-capture'
import { createTestApi, TEST_ORIGIN } from '../support/test-api'

const engine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite'
const address = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  phone: '212 555 0100',
  line1: '12 Orchard Street',
  line2: '',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US',
}
/** What both the in-process API and the server processes run with: short leases and production steps keep the test short. */
const common = {
  PUBLIC_URL: TEST_ORIGIN,
  SESSION_SECRET: 'crash-test-session-secret-0123456789abcdef',
  JOB_LEASE_SECONDS: '2',
  LOCAL_FULFILMENT_STEP_SECONDS: '1',
}
/** The server processes skip the demo seeding (the data is prepared in-process). */
const serverEnv = (store: Store, extra: Record<string, string> = {}) => ({ ...common, ...store.env, DEMO_MODE: 'false', ...extra })

async function withData<T>(store: Store, env: Record<string, string>, use: (t: Awaited<ReturnType<typeof createTestApi>>) => Promise<T>) {
  const t = await createTestApi({ ...common, ...store.env, ...env }, { database: { databaseUrl: store.databaseUrl, dataDir: store.dataDir } })
  t.setNow(new Date())
  try {
    return await use(t)
  } finally {
    await t.close()
  }
}

/**
 * A recorded preview (recordPreview writes no file, and its photos are not stored) with its design's print files, as the
 * cart's job would have rendered them: a parcel is never submitted without them. Answers the preview and the files.
 */
async function previewWithPrintFiles(t: Awaited<ReturnType<typeof createTestApi>>, userId: string) {
  const preview = await recordPreview(t, userId)
  const png = (background: string) =>
    sharp({ create: { width: 8, height: 8, channels: 3, background } })
      .png()
      .toBuffer()
  const files = { front: await png('#fff'), back: await png('#c33') }
  for (const position of PRINT_POSITIONS) await t.storage.put(printFileKey({ id: preview.id, designHash: null }, position), files[position], 'image/png')
  return { preview, files }
}

const stores: Store[] = []
async function newStore() {
  const store = await freshStore(engine)
  stores.push(store)
  return store
}
afterEach(killServers)
afterAll(async () => {
  for (const store of stores) await store.drop()
})

describe(`a server killed mid-way (${engine})`, () => {
  it('a payment and each fulfilment step killed at its crash point: one order, submitted once, and it goes on to shipped', { timeout: 180_000 }, async () => {
    const store = await newStore()
    const { cookie, sessionId } = await withData(store, {}, async (t) => {
      const cookie = await t.signIn(0)
      const { preview } = await previewWithPrintFiles(t, t.users[0].id)
      const added = await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview), cookie })
      expect(added.status).toBe(201)
      const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
      expect(session.status).toBe(201)
      return { cookie, sessionId: session.body.id as string }
    })
    const pay = { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address }, cookie }

    // 1. The payment: the session is paid, the order is written but not committed.
    let server = await startServer(serverEnv(store), { pauseAt: 'checkout:before-commit' })
    const payment = server.request(`/v1/checkout/local/${sessionId}/pay`, pay).catch(() => null)
    await server.pausedAt('checkout:before-commit')
    await server.kill()
    expect(await payment).toBeNull()

    // 2. The shopper pays again and comes back from the payment page: one order. The provider has it, we have not noted it.
    server = await startServer(serverEnv(store), { pauseAt: 'submit-order:after-provider' })
    const paid = await server.request(`/v1/checkout/local/${sessionId}/pay`, pay)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const orderId = paid.body.orderId as string
    expect(orderId).toBeTruthy()
    expect((await server.request(`/v1/photo-products-cart/checkout-session/${sessionId}`, { cookie })).body).toMatchObject({ status: 'paid' })
    await server.pausedAt('submit-order:after-provider')
    await server.kill()

    // 3. The job is taken over once its lease runs out; killed again as it notes the submission.
    server = await startServer(serverEnv(store), { pauseAt: 'submit-order:before-commit' })
    await server.pausedAt('submit-order:before-commit')
    await server.kill()

    // 4. Submitted; killed as the local print shop moves the order into production.
    server = await startServer(serverEnv(store), { pauseAt: 'advance-order:before-commit' })
    await server.pausedAt('advance-order:before-commit')
    await server.kill()

    // 5. No more crashes: the order goes on to shipped.
    server = await startServer(serverEnv(store))
    const order = async () => (await server.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
    await server.until('the order to ship', async () => (await order()).status === 'shipped')
    expect(await order()).toMatchObject({ status: 'shipped', providerOrderId: `local-${orderId}`, trackingNumber: expect.stringMatching(/^1ZKS/) })
    expect((await server.request('/v1/photo-products-orders', { cookie })).body.orders).toHaveLength(1)
    await server.kill()

    await withData(store, {}, async (t) => {
      expect(await t.db.select().from(orders)).toHaveLength(1)
      // The shipping e-mail is queued as the order ships, so its delivery may not have run before the kill: run what is due.
      t.setNow(new Date(t.now().getTime() + (Number(common.JOB_LEASE_SECONDS) + 1) * 1000))
      await drainJobs(t.api.deps, mailJobs)
      // One confirmation (the payment killed before its commit left none) and one shipping e-mail.
      expect((await t.db.select().from(outboxEmails)).map((e) => [e.reference, e.status]).sort()).toEqual([
        [`order-confirmation:${orderId}`, 'sent'],
        [`order-shipped:${orderId}`, 'sent'],
      ])
      const rows = await t.db.select().from(jobs)
      expect(rows.filter((j) => j.kind === 'submit-order')).toEqual([expect.objectContaining({ status: 'done', attempts: 3, lockedBy: null })])
      // Sent to production once, after it was submitted; then the local shop's steps.
      expect(rows.filter((j) => j.kind === 'send-to-production')).toEqual([expect.objectContaining({ status: 'done', attempts: 1 })])
      expect((await t.db.select().from(orderParcels)).map((p) => p.sentToProductionAt)).toEqual([expect.any(Date)])
      expect(
        rows
          .filter((j) => j.kind === 'advance-order')
          .map((j) => [j.dedupeKey.split(':')[2], j.status])
          .sort(),
      ).toEqual([
        ['in_production', 'done'],
        ['shipped', 'done'],
      ])
      expect(rows.filter((j) => j.status !== 'done')).toEqual([])
    })
  })

  it(
    'a payment killed after its order was made but before the answer: the return page finds that one order, and paying again makes no second',
    { timeout: 120_000 },
    async () => {
      const store = await newStore()
      const { cookie, sessionId } = await withData(store, {}, async (t) => {
        const cookie = await t.signIn(0)
        expect(
          (await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(await recordPreview(t, t.users[0].id)), cookie })).status,
        ).toBe(201)
        const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
        return { cookie, sessionId: session.body.id as string }
      })
      const pay = { method: 'POST', json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address }, cookie }
      let server = await startServer(serverEnv(store), { pauseAt: 'checkout:after-order' })
      const payment = server.request(`/v1/checkout/local/${sessionId}/pay`, pay).catch(() => null)
      await server.pausedAt('checkout:after-order')
      await server.kill()
      expect(await payment).toBeNull()

      server = await startServer(serverEnv(store))
      const back = await server.request(`/v1/photo-products-cart/checkout-session/${sessionId}`, { cookie })
      expect(back.body).toMatchObject({ status: 'paid', orderId: expect.any(String) })
      const again = await server.request(`/v1/checkout/local/${sessionId}/pay`, pay)
      expect(again.status).toBe(200)
      expect(again.body.orderId).toBe(back.body.orderId)
      await server.kill()
      await withData(store, {}, async (t) => {
        expect(await t.db.select().from(orders)).toHaveLength(1)
      })
    },
  )

  it(
    'a gift e-mail and a referral reward killed at their crash points: the e-mail under one Message-ID, the reward credited once',
    { timeout: 180_000 },
    async () => {
      const received: { messageId: string; to: string }[] = []
      const smtp = await startSmtpCapture({
        onMessage: (data) =>
          received.push({ messageId: /^Message-ID: (.*)$/im.exec(data)?.[1]?.trim() ?? '', to: /^To: (.*)$/im.exec(data)?.[1]?.trim() ?? '' }),
      })
      const mail = {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Keepsake <gifts@keepsake.example>',
        // Production steps longer than a job lease: the friend's shipping e-mail cannot reach the crash points before the gift's does.
        LOCAL_FULFILMENT_STEP_SECONDS: '3',
      }
      // The gift's e-mails; the friend's order e-mails go through the same SMTP server.
      const toGran = () => received.filter((r) => r.to === 'gran@example.com')
      try {
        const store = await newStore()
        const { maya, friend, friendOrderId, giftId } = await withData(store, mail, async (t) => {
          const maya = await t.signIn(0)
          // A friend redeems Maya's invite and pays for a first order: Maya's reward is approved.
          const { code } = (await t.request('/v1/growth/advocate/redemptions', { cookie: maya })).body
          const guest = await t.signInGuest()
          const landed = await t.request(`/v1/growth/referral-codes/${code}`)
          const friend = `${guest.cookie}; ${landed.headers.get('set-cookie')!.split(';')[0]}`
          expect((await t.request('/v1/growth/referred/redemptions', { method: 'POST', json: { timezone: 'America/New_York' }, cookie: friend })).status).toBe(
            201,
          )
          const { preview } = await previewWithPrintFiles(t, guest.user.id)
          await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview), cookie: friend })
          const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie: friend })
          const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
            method: 'POST',
            json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
            cookie: friend,
          })
          expect(paid.status).toBe(200)
          // The friend's order confirmation goes out now, so the e-mail the crash points below stop is the gift's.
          expect(await drainJobs(t.api.deps, mailJobs)).toEqual([expect.objectContaining({ kind: 'send-email', outcome: 'done' })])
          // Maya buys an e-gift for today: its e-mail is due.
          const gift = { amountCents: 5000, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: 'Happy holidays!' }
          const bought = await t.request('/v1/egifts/purchases', {
            method: 'POST',
            json: gift,
            cookie: maya,
            headers: { 'x-keepsake-timezone': 'America/New_York' },
          })
          expect(bought.status).toBe(201)
          expect(
            (
              await t.request(`/v1/checkout/local/${bought.body.checkoutSessionId}/pay`, {
                method: 'POST',
                json: { cardNumber: LOCAL_TEST_CARDS.succeeds },
                cookie: maya,
              })
            ).status,
          ).toBe(200)
          // The reward's hold has passed: it is due with the order's submission, before the e-mail (jobs are taken in run_at, id order).
          const held = await t.db.update(jobs).set({ runAt: t.now() }).where(eq(jobs.kind, 'credit-referral-reward')).returning()
          expect(held).toHaveLength(1)
          return { maya, friend, friendOrderId: paid.body.orderId as string, giftId: bought.body.id as string }
        })

        // 1. The reward is being credited (inside its transaction). E-mail has its own lane (decision 074), which would
        // begin the gift's e-mail meanwhile: it is held an hour for this step, and due again for the next.
        const holdEmail = (runAt: Date) => withData(store, mail, (t) => t.db.update(jobs).set({ runAt }).where(eq(jobs.kind, 'send-email')))
        await holdEmail(new Date(Date.now() + 3600_000))
        let server = await startServer(serverEnv(store, mail), { pauseAt: 'credit-referral-reward:before-commit' })
        await server.pausedAt('credit-referral-reward:before-commit')
        await server.kill()
        await holdEmail(new Date())

        // 2. The e-mail's attempt is recorded, the SMTP server not yet reached.
        server = await startServer(serverEnv(store, mail), { pauseAt: 'send-email:before-smtp' })
        await server.pausedAt('send-email:before-smtp')
        await server.kill()
        expect(toGran()).toHaveLength(0)

        // 3. The SMTP server accepted the e-mail; it is not yet marked sent.
        server = await startServer(serverEnv(store, mail), { pauseAt: 'send-email:after-smtp' })
        await server.pausedAt('send-email:after-smtp')
        await server.kill()
        expect(toGran()).toHaveLength(1)

        // 4. No more crashes.
        server = await startServer(serverEnv(store, mail))
        const rewards = async () => (await server.request('/v1/growth/advocate/redemptions', { cookie: maya })).body.redemptions as { status: string }[]
        await server.until('the reward to be credited', async () => (await rewards())[0]?.status === 'credited')
        await server.until(
          'the e-gift to be e-mailed',
          async () => (await server.request(`/v1/egifts/purchases/${giftId}`, { cookie: maya })).body.emailedAt !== null,
        )
        expect((await server.request('/v1/store-credit', { cookie: maya })).body.balanceCents).toBe(ADVOCATE_REWARD_CENTS)
        await server.until(
          'the order to ship',
          async () => (await server.request(`/v1/photo-products-orders/${friendOrderId}`, { cookie: friend })).body.status === 'shipped',
        )
        await server.kill()

        await withData(store, mail, async (t) => {
          // The one window left (docs/decisions/018): accepted but not yet marked sent, so sent again, under the same Message-ID.
          const [email] = await t.db
            .select()
            .from(outboxEmails)
            .where(eq(outboxEmails.reference, `egift:${giftId}`))
          expect(email).toMatchObject({ status: 'sent', smtpAttempts: 3, messageId: expect.stringMatching(/^<[0-9a-f-]{36}@keepsake\.example>$/) })
          expect(toGran()).toEqual([
            { messageId: email!.messageId, to: 'gran@example.com' },
            { messageId: email!.messageId, to: 'gran@example.com' },
          ])
          expect((await t.db.select().from(egifts).where(eq(egifts.id, giftId)))[0]!.emailedAt).not.toBeNull()
          expect(
            await t.db
              .select()
              .from(creditEntries)
              .where(and(eq(creditEntries.userId, t.users[0].id), eq(creditEntries.reason, 'referral_reward'))),
          ).toHaveLength(1)
          expect(await t.db.select().from(orders)).toEqual([expect.objectContaining({ id: friendOrderId })])
          // The friend's shipping e-mail is queued as the order ships, so its delivery may not have run before the kill: run what is due.
          t.setNow(new Date(t.now().getTime() + (Number(common.JOB_LEASE_SECONDS) + 1) * 1000))
          await drainJobs(t.api.deps, mailJobs)
          const rows = await t.db.select().from(jobs)
          for (const kind of ['submit-order', 'send-to-production', 'credit-referral-reward'])
            expect(rows.filter((j) => j.kind === kind).map((j) => j.status)).toEqual(['done'])
          // The gift's e-mail, the friend's order confirmation and shipping e-mail.
          expect(rows.filter((j) => j.kind === 'send-email').map((j) => j.status)).toEqual(['done', 'done', 'done'])
          // Only the invite's expiry is still ahead; nothing is left running or failed.
          expect(rows.filter((j) => j.status !== 'done').map((j) => [j.kind, j.status])).toEqual([['expire-referral', 'queued']])
        })
      } finally {
        await smtp.close()
      }
    },
  )

  it('an order killed after Printify took it is found by its external_id on the re-run: Printify receives it once', { timeout: 180_000 }, async () => {
    // The Printify mock over HTTP, so it outlives the server processes as Printify would.
    const mock = createPrintifyMock()
    const bridge = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', async () => {
        const headers = Object.fromEntries(
          ['authorization', 'user-agent', 'content-type', 'accept'].flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])),
        )
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
        const answer = await mock.fetch(`https://api.printify.com${req.url}`, { method: req.method, headers, body })
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text())
      })
    })
    bridge.listen(0, '127.0.0.1')
    await once(bridge, 'listening')
    const printify = {
      PRINTIFY_API_TOKEN: MOCK_PRINTIFY_TOKEN,
      PRINTIFY_SHOP_ID: String(MOCK_PRINTIFY_SHOP_ID),
      PRINTIFY_API_URL: `http://127.0.0.1:${(bridge.address() as AddressInfo).port}`,
      // The local checkout pays these orders (the stand-in's): allowed on purpose.
      ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'true',
    }
    const ordersPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/orders.json`
    const productsPath = `/v1/shops/${MOCK_PRINTIFY_SHOP_ID}/products.json`
    try {
      const store = await newStore()
      const provider = new PrintifyProvider(new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, fetch: mock.fetch }))
      const { cookie, orderId, previewId, files } = await withData(store, {}, async (t) => {
        t.api.deps.print = provider
        const cookie = await t.signIn(0)
        // A design made with Printify configured: its product is its own (no provider call), its print files kept.
        const { preview, files } = await previewWithPrintFiles(t, t.users[0].id)
        await t.db.update(previews).set({ provider: 'printify' }).where(eq(previews.id, preview.id))
        expect((await t.request('/v1/photo-products-cart/items', { method: 'POST', json: cartItemFor(preview), cookie })).status).toBe(201)
        const session = await t.request('/v1/photo-products-cart/checkout-session', { method: 'POST', cookie })
        const paid = await t.request(`/v1/checkout/local/${session.body.id}/pay`, {
          method: 'POST',
          json: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: address },
          cookie,
        })
        expect(paid.body).toMatchObject({ status: 'paid' })
        return { cookie, orderId: paid.body.orderId as string, previewId: preview.id, files }
      })

      // 1. Printify took the order; we have not noted its id. Printify cannot fetch http://localhost, so the design's print
      // files went up by content and one product was made for the line.
      let server = await startServer(serverEnv(store, printify), { pauseAt: 'submit-order:after-provider' })
      await server.pausedAt('submit-order:after-provider')
      await server.kill()
      expect(mock.callsTo('POST', ordersPath)).toHaveLength(1)
      const received = () => ({
        uploads: mock.callsTo('POST', '/v1/uploads/images.json').map((c) => c.body),
        products: mock.callsTo('POST', productsPath).map((c) => (c.body as { tags: string[] }).tags),
      })
      const taken = received()
      expect(taken.uploads).toEqual([
        { file_name: expect.stringMatching(/-front\.png$/), contents: files.front.toString('base64') },
        { file_name: expect.stringMatching(/-back\.png$/), contents: files.back.toString('base64') },
      ])
      expect(taken.products).toHaveLength(1)

      // 2. The re-run finds it by external_id; killed again as it notes it.
      server = await startServer(serverEnv(store, printify), { pauseAt: 'submit-order:before-commit' })
      await server.pausedAt('submit-order:before-commit')
      await server.kill()

      // 3. No more crashes.
      server = await startServer(serverEnv(store, printify))
      const order = async () => (await server.request(`/v1/photo-products-orders/${orderId}`, { cookie })).body
      await server.until('the order to be submitted', async () => (await order()).status === 'submitted')
      const [printifyOrder] = [...mock.orders.values()]
      expect(await order()).toMatchObject({ provider: 'printify', providerOrderId: printifyOrder!.id })
      // Its hold over (0 minutes), the order goes to production.
      await server.until('the order to be sent to production', () => mock.sentToProduction.get(printifyOrder!.id) === 1)
      await server.kill()

      expect(mock.callsTo('POST', ordersPath)).toHaveLength(1)
      expect([...mock.orders.values()].map((o) => o.external_id)).toEqual([orderId])
      // The re-runs found the order: no second upload, and no second product.
      expect(received()).toEqual(taken)
      expect(mock.products.size).toBe(1)
      expect(printifyOrder!.line_items).toEqual([expect.objectContaining({ product_id: [...mock.products.keys()][0], quantity: 1 })])
      expect(mock.products.get(printifyOrder!.line_items[0]!.product_id)!.tags).toEqual([`keepsake-preview:${previewId}`])
      await withData(store, {}, async (t) => {
        expect(await t.db.select().from(orders)).toHaveLength(1)
        expect((await t.db.select().from(jobs)).filter((j) => j.kind === 'submit-order')).toEqual([expect.objectContaining({ status: 'done', attempts: 3 })])
        // Killed just after the send, its job may not have noted it: run what is due. A second run does not send again.
        t.api.deps.print = provider
        t.setNow(new Date(t.now().getTime() + (Number(common.JOB_LEASE_SECONDS) + 1) * 1000))
        await drainJobs(t.api.deps, fulfilmentJobs)
        expect((await t.db.select().from(jobs)).filter((j) => j.kind === 'send-to-production')).toEqual([expect.objectContaining({ status: 'done' })])
        expect((await t.db.select().from(orderParcels)).map((p) => p.sentToProductionAt)).toEqual([expect.any(Date)])
      })
      expect(mock.sentToProduction.get(printifyOrder!.id)).toBe(1)
    } finally {
      await new Promise<void>((resolve) => bridge.close(() => resolve()))
    }
  })
})
