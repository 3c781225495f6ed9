import fc from 'fast-check'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { continueWithTransitionCode, transitionCodeOf } from '../../app/auth-continue.server'
import { DEFAULT_LANDING, safeRedirectPath } from '../../app/contract/redirect-path'
import { jobs, outboxEmails, signInLinks } from '../../app/api/db/schema'
import { withClientAddress } from '../../app/api/client-address'
import { drainJobs } from '../../app/api/services/jobs'
import { signInLinkJobs } from '../../app/api/services/sign-in-links'
import { SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, SIGN_IN_LINKS_PER_HOUR } from '../../app/contract/growth'
import { registerInProcessApi } from '../../app/lib/api-client'
import { hostileRedirect, isSameSitePath } from '../support/redirect-arbitraries'
import { readableMessage, startSmtpCapture } from '../support/smtp-capture'
import { mailJobs } from '../../app/api/services/mail'
import { createTestApi, TEST_ORIGIN, type TestApi } from '../support/test-api'

/** The query texts (placeholders, no parameters) the database hears while a recording is on. */
let recording: string[] | null = null
let t: TestApi
beforeAll(async () => {
  // The store's side (auth-continue.server.ts) reads the process's config: the same site as the API under test.
  vi.stubEnv('PUBLIC_URL', TEST_ORIGIN)
  t = await createTestApi({}, { logger: { logQuery: (query) => recording?.push(query) } })
  // The store's API client reaches this API in-process, as the store's server does (app/server.ts).
  registerInProcessApi(async (request) => withClientAddress('203.0.113.200', () => t.api.fetch(request)))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await t.close()
})

async function queriesOf(run: () => Promise<unknown>) {
  recording = []
  try {
    await run()
    return recording
  } finally {
    recording = null
  }
}

const origin = { origin: TEST_ORIGIN }
let clientCounter = 0
/** A fresh client address per test, so the per-client limit of one test does not leak into the next. */
const freshClient = () => `198.51.100.${++clientCounter}`

async function askForLink(email: string, opts: { redirect?: string; clientAddress?: string } = {}) {
  return t.request('/v1/growth/sign-in-links', {
    method: 'POST',
    headers: origin,
    clientAddress: opts.clientAddress ?? freshClient(),
    json: { email, ...(opts.redirect === undefined ? {} : { redirect: opts.redirect }) },
  })
}

/** The e-mails to an address, once the background job that looks the address up has run. */
async function emailsTo(address: string) {
  await drainJobs(t.api.deps, signInLinkJobs)
  return t.db
    .select()
    .from(outboxEmails)
    .where(sql`lower(${outboxEmails.to}) = lower(${address}) and ${outboxEmails.kind} = 'sign-in-link'`)
}

/** The token of the newest sign-in link e-mailed to the address, read from the e-mail's text as a shopper would. */
async function latestToken(address: string) {
  const emails = (await emailsTo(address)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  const text = emails.at(-1)?.text ?? ''
  const link = /https?:\/\/\S+\/auth\/link\?token=(\S+)/.exec(text)
  if (!link) throw new Error(`no sign-in link e-mailed to ${address}`)
  return decodeURIComponent(link[1]!)
}

function redeem(token: unknown, clientAddress = freshClient()) {
  return t.request('/v1/growth/sign-in-links/redeem', { method: 'POST', headers: origin, clientAddress, json: { token } })
}

/** A brand-new account per test: each address has its own limit of 5 links an hour. */
const newShopper = async () => (await t.signInGuest(freshClient())).user

describe('asking for a sign-in link', () => {
  it('e-mails a one-time link to the address of the account, storing only its hash', async () => {
    const shopper = await newShopper()
    const before = (await emailsTo(shopper.email)).length
    const res = await askForLink(shopper.email, { redirect: '/photo-products/cart' })
    expect(res.status).toBe(202)
    expect(res.body).toEqual({ sent: true, expiresInMinutes: 15 })
    const emails = await emailsTo(shopper.email)
    expect(emails).toHaveLength(before + 1)
    const email = emails.at(-1)!
    expect(email.subject).toBe('Your Keepsake sign-in link')
    expect(email.text).toContain(`${TEST_ORIGIN}/auth/link?token=`)
    expect(email.html).toContain('Sign in to Keepsake')
    const token = await latestToken(shopper.email)
    const stored = await t.db.select().from(signInLinks).where(eq(signInLinks.userId, shopper.id))
    expect(stored.length).toBeGreaterThan(0)
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(stored.map((s) => s.redirect)).toContain('/photo-products/cart')
  })

  it('answers an address without an account exactly as one with, and sends nothing', async () => {
    const shopper = await newShopper()
    const known = await askForLink(shopper.email)
    const unknown = await askForLink('nobody-here@example.com')
    expect(unknown.status).toBe(known.status)
    expect(unknown.body).toEqual(known.body)
    expect(await emailsTo('nobody-here@example.com')).toHaveLength(0)
  })

  it('finds the account whatever the case and spacing of the address', async () => {
    const shopper = await newShopper()
    const before = (await emailsTo(shopper.email)).length
    const res = await askForLink(`  ${shopper.email.toUpperCase()} `)
    expect(res.status).toBe(202)
    expect(await emailsTo(shopper.email)).toHaveLength(before + 1)
  })

  it('refuses a missing or malformed address with its message, and records nothing', async () => {
    const links = (await t.db.select().from(signInLinks)).length
    const missing = await t.request('/v1/growth/sign-in-links', { method: 'POST', headers: origin, clientAddress: freshClient(), json: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.error.issues[0]).toMatchObject({ path: 'body.email', message: 'Enter your e-mail address' })
    const malformed = await askForLink('not-an-address')
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.issues[0].message).toMatch(/doesn’t look like an e-mail address/)
    expect((await t.db.select().from(signInLinks)).length).toBe(links)
  })

  it('runs the same queries for an address with an account and one without, so its time tells them apart no more than its words', async () => {
    const shopper = await newShopper()
    const known = await queriesOf(() => askForLink(shopper.email, { redirect: '/photo-products/cart' }))
    const unknown = await queriesOf(() => askForLink('nobody-at-all@example.com', { redirect: '/photo-products/cart' }))
    expect(known.length).toBeGreaterThan(0)
    expect(unknown).toEqual(known)
    // The answer comes before the lookup: the request reads no account.
    expect(known.join('\n')).not.toMatch(/"users"/)
    // And the link still reaches the account, once the job has run; the job keeps no address once it is done.
    expect(await emailsTo(shopper.email)).toHaveLength(1)
    expect(await emailsTo('nobody-at-all@example.com')).toHaveLength(0)
    const linkJobs = await t.db.select().from(jobs).where(eq(jobs.kind, 'send-sign-in-link'))
    expect(linkJobs.length).toBeGreaterThanOrEqual(2)
    expect(linkJobs.every((job) => job.status === 'done')).toBe(true)
    expect(JSON.stringify(linkJobs.map((job) => job.payload))).not.toMatch(/@/)
  })

  it('lands the e-mailed link on a path on this site, or refuses the request (400) and sends nothing', async () => {
    const numRuns = 40
    await fc.assert(
      fc.asyncProperty(hostileRedirect, async (redirect) => {
        const shopper = await newShopper()
        const res = await askForLink(shopper.email, { redirect })
        const expected = safeRedirectPath(redirect)
        if (expected === undefined) {
          expect(res.status, redirect).toBe(400)
          expect(res.body.error.issues.map((i: { path: string }) => i.path)).toEqual(['body.redirect'])
          expect(await emailsTo(shopper.email)).toHaveLength(0)
          return
        }
        expect(res.status, redirect).toBe(202)
        const signedIn = await redeem(await latestToken(shopper.email))
        expect(signedIn.status).toBe(200)
        // The page hands this to location.replace: the browser must resolve it on this site.
        expect(isSameSitePath(signedIn.body.redirect), `${redirect} → ${signedIn.body.redirect}`).toBe(true)
        expect(signedIn.body.redirect).toBe(expected)
      }),
      {
        numRuns,
        examples: [
          ['/..//evil.example/'],
          ['/a/../..//'],
          ['/%2e%2e//'],
          ['/.//'],
          ['//evil.example/steal'],
          ['https://evil.example/'],
          ['/\\evil.example'],
          ['javascript:alert(1)'],
        ],
      },
    )
    console.log(`[sign-in] e-mailed link redirects: ${numRuns} generated cases and 8 examples`)
  })

  it('lands a link stored before the fix with a redirect off the site on the default page', async () => {
    const shopper = await newShopper()
    await askForLink(shopper.email, { redirect: '/photo-products/cart' })
    const token = await latestToken(shopper.email)
    await t.db.update(signInLinks).set({ redirect: '//evil.example/' }).where(eq(signInLinks.userId, shopper.id))
    const signedIn = await redeem(token)
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.redirect).toBe(DEFAULT_LANDING)
  })
})

describe('GET /auth/continue with a real transition code', () => {
  /** The store's request middleware (start.ts) on a page load of /auth/continue. */
  async function continueAt(code: string, redirect: string) {
    const url = new URL(`/auth/continue?${new URLSearchParams({ code, redirect })}`, TEST_ORIGIN)
    const request = new Request(url)
    return continueWithTransitionCode(request, transitionCodeOf(url)!)
  }

  it('answers 302 to a path on this site, whatever the redirect', async () => {
    const { cookie } = await t.signInGuest(freshClient())
    const numRuns = 60
    await fc.assert(
      fc.asyncProperty(hostileRedirect, async (redirect) => {
        const issued = await t.request('/v1/growth/transition-token', { cookie })
        expect(issued.status).toBe(200)
        const res = await continueAt(issued.body.transitionToken, redirect)
        expect(res.status).toBe(302)
        const location = res.headers.get('location')!
        expect(isSameSitePath(location), `${redirect} → ${location}`).toBe(true)
        // A real code signs in, and lands where the normaliser says.
        expect(res.headers.get('set-cookie')).toMatch(/keepsake_session=[^;]+/)
        expect(location).toBe(safeRedirectPath(redirect) ?? DEFAULT_LANDING)
      }),
      { numRuns, examples: [['/..//evil.example/'], ['/a/../..//'], ['/%2e%2e//'], ['/.//']] },
    )
    console.log(`[sign-in] /auth/continue redirects: ${numRuns} generated cases and 4 examples`)
  })
})

describe('limits on sign-in links (5 an hour per client, 20 an hour per address)', () => {
  /** Asks for the address's whole hourly allowance, five links from each of four clients. */
  async function spendAddressAllowance(email: string) {
    for (let client = 0; client < SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR / SIGN_IN_LINKS_PER_HOUR; client++) {
      const from = freshClient()
      for (let i = 0; i < SIGN_IN_LINKS_PER_HOUR; i++) expect((await askForLink(email, { clientAddress: from })).status).toBe(202)
    }
  }

  it("a stranger's five links to an address do not lock its owner out (issue 42, item 14)", async () => {
    const { email } = await newShopper()
    const stranger = freshClient()
    for (let i = 0; i < 5; i++) expect((await askForLink(email, { clientAddress: stranger })).status).toBe(202)
    // Refused requests from that client spend nothing of the address's allowance, however many.
    for (let i = 0; i < SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR + 5; i++) expect((await askForLink(email, { clientAddress: stranger })).status).toBe(429)
    // The owner, from their own client, still gets a link that signs them in.
    expect((await askForLink(email)).status).toBe(202)
    expect(await emailsTo(email)).toHaveLength(6)
    expect((await redeem(await latestToken(email))).status).toBe(200)
  })

  it('refuses the twenty-first link for one address in an hour with 429, from any client, and sends nothing for it', async () => {
    const { email } = await newShopper()
    await spendAddressAllowance(email)
    const refused = await askForLink(email)
    expect(refused.status).toBe(429)
    expect(refused.body.error.message).toMatch(/^Too many sign-in links were asked for; try again in \d+ minutes?$/)
    expect(await emailsTo(email)).toHaveLength(SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR)
  })

  it('says when the limit lifts in Retry-After (seconds), so a retrying client waits or gives up instead of asking again at once', async () => {
    const client = freshClient()
    for (let i = 0; i < 5; i++) await askForLink(`retry-${i}@example.com`, { clientAddress: client })
    const refused = await askForLink('retry-5@example.com', { clientAddress: client })
    expect(refused.status).toBe(429)
    const seconds = Number(refused.headers.get('retry-after'))
    expect(Number.isInteger(seconds)).toBe(true)
    expect(seconds).toBeGreaterThan(0)
    expect(seconds).toBeLessThanOrEqual(3600)
  })

  it('limits an address without an account the same way (no probing by the limit)', async () => {
    await spendAddressAllowance('ghost@example.com')
    expect((await askForLink('ghost@example.com')).status).toBe(429)
  })

  it('refuses the sixth link from one client in an hour, whatever the addresses', async () => {
    const client = freshClient()
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) statuses.push((await askForLink(`someone-${i}@example.com`, { clientAddress: client })).status)
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429])
    // Another client is not held back by this one.
    expect((await askForLink('someone-6@example.com')).status).toBe(202)
  })

  it('allows links again in the next hour', async () => {
    const { email } = await newShopper()
    const start = t.now()
    try {
      await spendAddressAllowance(email)
      expect((await askForLink(email)).status).toBe(429)
      t.setNow(new Date(start.getTime() + 3600_000))
      expect((await askForLink(email)).status).toBe(202)
    } finally {
      t.setNow(start)
    }
  })
})

describe('the link over SMTP (issue 42, item 13)', () => {
  it('reaches the mail server, and once sent the outbox row keeps no token', async () => {
    const server = await startSmtpCapture()
    const smtp = await createTestApi({ SMTP_URL: server.url })
    try {
      const { email } = (await smtp.signInGuest('192.0.2.40')).user
      const asked = await smtp.request('/v1/growth/sign-in-links', { method: 'POST', headers: origin, clientAddress: '192.0.2.40', json: { email } })
      expect(asked.status).toBe(202)
      await drainJobs(smtp.api.deps, { ...signInLinkJobs, ...mailJobs })
      expect(server.messages).toHaveLength(1)
      const token = /\/auth\/link\?token=([A-Za-z0-9_-]+)/.exec(readableMessage(server.messages[0]!))?.[1]
      expect(token).toBeTruthy()
      const [row] = await smtp.db.select().from(outboxEmails).where(eq(outboxEmails.kind, 'sign-in-link'))
      expect(row).toMatchObject({ status: 'sent', transport: 'smtp' })
      expect(JSON.stringify(row)).not.toContain(token)
      expect(row!.text).toContain('[redacted once sent]')
      // The link the shopper received still signs in.
      const redeemed = await smtp.request('/v1/growth/sign-in-links/redeem', { method: 'POST', headers: origin, clientAddress: '192.0.2.41', json: { token } })
      expect(redeemed.status).toBe(200)
    } finally {
      await smtp.close()
      await server.close()
    }
  })
})

describe('signing in with the link', () => {
  it('signs in once, answers where to land, and the session works', async () => {
    const shopper = await newShopper()
    await askForLink(shopper.email, { redirect: '/referral/redeem?from=email' })
    const token = await latestToken(shopper.email)
    const res = await redeem(token)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ authenticated: true, user: { id: shopper.id }, redirect: '/referral/redeem?from=email' })
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!
    const session = await t.request('/v1/growth/authenticate-session', { cookie })
    expect(session.status).toBe(200)
    expect(session.body.user.id).toBe(shopper.id)

    const again = await redeem(token)
    expect(again.status).toBe(401)
    expect(again.body.error.message).toMatch(/already used/)
    expect(again.headers.get('set-cookie')).toBeNull()
  })

  it('refuses a link after 15 minutes, and takes it up to then', async () => {
    const shopper = await newShopper()
    const start = t.now()
    try {
      await askForLink(shopper.email)
      const late = await latestToken(shopper.email)
      await askForLink(shopper.email)
      const inTime = await latestToken(shopper.email)
      t.setNow(new Date(start.getTime() + 15 * 60_000 - 1000))
      expect((await redeem(inTime)).status).toBe(200)
      t.setNow(new Date(start.getTime() + 15 * 60_000))
      const expired = await redeem(late)
      expect(expired.status).toBe(401)
      expect(expired.body.error.message).toMatch(/expired/)
    } finally {
      t.setNow(start)
    }
  })

  it.each([
    ['a forged token', 'x'.repeat(43), 401],
    ['an empty token', '', 400],
    ['a token longer than any link', 'y'.repeat(129), 400],
    ['a number', 12345, 400],
  ])('refuses %s without a session', async (_what, token, status) => {
    const res = await redeem(token)
    expect(res.status).toBe(status)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('spends a link once when two browsers open it at the same time', async () => {
    const shopper = await newShopper()
    await askForLink(shopper.email)
    const token = await latestToken(shopper.email)
    const results = await Promise.all([redeem(token), redeem(token), redeem(token)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401])
  })
})

describe('signing out everywhere', () => {
  it('ends every session of the shopper and only theirs', async () => {
    const first = await t.signIn(0)
    const second = await t.signIn(0)
    const other = await t.signIn(1)
    const res = await t.request('/v1/growth/sessions', { method: 'DELETE', cookie: first, headers: origin })
    expect(res.status).toBe(200)
    expect(res.body.authenticated).toBe(false)
    expect(res.body.sessionsEnded).toBeGreaterThanOrEqual(2)
    expect(res.headers.get('set-cookie')).toMatch(/keepsake_session=;/)
    for (const cookie of [first, second]) expect((await t.request('/v1/growth/authenticate-session', { cookie })).status).toBe(401)
    expect((await t.request('/v1/growth/authenticate-session', { cookie: other })).status).toBe(200)
  })

  it('voids the sign-in links and transition codes issued before it; a link asked for after it works', async () => {
    const { cookie, user } = await t.signInGuest(freshClient())
    await askForLink(user.email)
    const before = await latestToken(user.email)
    const code = (await t.request('/v1/growth/transition-token', { cookie })).body.transitionToken as string
    expect((await t.request('/v1/growth/sessions', { method: 'DELETE', cookie, headers: origin })).status).toBe(200)

    const link = await redeem(before)
    expect(link.status).toBe(401)
    expect(link.headers.get('set-cookie')).toBeNull()
    const exchanged = await t.request('/v1/growth/transition-token', { method: 'POST', headers: { ...origin, authorization: `Bearer ${code}` } })
    expect(exchanged.status).toBe(401)
    expect(exchanged.headers.get('set-cookie')).toBeNull()

    await askForLink(user.email)
    const after = await latestToken(user.email)
    const signedIn = await redeem(after)
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.user.id).toBe(user.id)
  })

  it('needs a session', async () => {
    const res = await t.request('/v1/growth/sessions', { method: 'DELETE', headers: origin })
    expect(res.status).toBe(401)
  })
})
