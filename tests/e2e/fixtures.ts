import { test as base, expect, type APIRequestContext, type BrowserContext } from '@playwright/test'
import { SESSION_COOKIE } from '../../app/contract/headers'

/** The shopper `login` made: a brand-new account of its own, as the API answered it. */
export type Shopper = { id: string; email: string; firstName: string; lastName: string; name: string }

export type LoginOptions = {
  /** The browser context to sign in: the test's own `context` unless another one is given (a second shopper's, say). */
  context?: BrowserContext
  /** The store to sign in to, an origin such as http://127.0.0.1:3100: the test's baseURL unless given. */
  origin?: string
  /**
   * One of the two seeded demo accounts by first name ('Maya', 'Sam'), signed in through POST /v1/demo/sessions instead
   * of a new shopper. Shared by every test: only for a test that needs someone of another family and changes nothing of
   * theirs (the guests are all in the Okafor family, so "someone outside it" is Maya).
   */
  demoAccount?: 'Maya' | 'Sam'
}

/** One Set-Cookie header's name, value and attributes. */
function parseSetCookie(header: string) {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim())
  const at = pair!.indexOf('=')
  const attrs = new Map(
    attributes.map((a) => {
      const eq = a.indexOf('=')
      return eq < 0 ? [a.toLowerCase(), ''] : [a.slice(0, eq).toLowerCase(), a.slice(eq + 1)]
    }),
  )
  return { name: pair!.slice(0, at), value: pair!.slice(at + 1), attrs }
}

let made = 0
/** An address from the range set aside for benchmarking (198.18.0.0/15), different for every guest this worker makes. */
function nextClientAddress() {
  made++
  return `198.18.${Number(process.env.TEST_WORKER_INDEX ?? 0) % 256}.${made % 256}`
}

/** Signs in a seeded demo account (POST /v1/demo/sessions), as the demo sign-in page's buttons do. */
async function demoSession(api: APIRequestContext, firstName: string) {
  const { users } = (await (await api.get('/v1/demo/users')).json()) as { users: { id: string; firstName: string }[] }
  const user = users.find((u) => u.firstName === firstName)
  expect(user, `a demo account named ${firstName}`).toBeDefined()
  return api.post('/v1/demo/sessions', { data: { userId: user!.id } })
}

/**
 * Browser tests that are not about signing in sign in with `login`, as the Epic Stack's fixture of that name does:
 * it asks the store's demo API for a brand-new shopper (POST /v1/demo/guests, demo mode only), and puts the session
 * cookie the API answered straight into the browser context with `addCookies`: no sign-in page is walked, and no
 * test shares its shopper (its cart, designs, orders, credit, invite code) with another.
 *
 * The guest is a new account of its own in the Okafor demo family (app/api/demo/accounts.ts), so it has the family's
 * 64-photo album to design from; what the account keeps (cart, designs, orders, addresses, credit, invites) starts empty.
 */
export const test = base.extend<{ login: (options?: LoginOptions) => Promise<Shopper> }>({
  login: async ({ context, baseURL, playwright }, use) => {
    await use(async (options = {}) => {
      const origin = options.origin ?? baseURL
      if (!origin) throw new Error('login needs an origin: the test has no baseURL')
      const target = options.context ?? context
      // Its own request context: the cookie reaches the browser through addCookies below, not through a shared jar.
      const api = await playwright.request.newContext({ baseURL: origin, storageState: { cookies: [], origins: [] } })
      try {
        // Each new shopper comes from an address of its own (the main server trusts one proxy hop, as production does):
        // the demo API makes at most 60 guests an hour per address, fewer than a whole run signs in.
        const response = options.demoAccount
          ? await demoSession(api, options.demoAccount)
          : await api.post('/v1/demo/guests', { headers: { 'x-forwarded-for': nextClientAddress() } })
        expect(response.status(), `${response.url()}: ${await response.text()}`).toBe(201)
        const { user } = (await response.json()) as { user: Omit<Shopper, 'name'> }
        const setCookie = response
          .headersArray()
          .filter((h) => h.name.toLowerCase() === 'set-cookie')
          .map((h) => parseSetCookie(h.value))
          .find((c) => c.name === SESSION_COOKIE)
        expect(setCookie, `the API answered a ${SESSION_COOKIE} cookie`).toBeDefined()
        const { value, attrs } = setCookie!
        const expires = attrs.get('expires')
        // The cookie as the API set it: host-only on the store's host, its path, Secure (HTTPS deployments) and SameSite.
        await target.addCookies([
          {
            name: SESSION_COOKIE,
            value,
            domain: new URL(origin).hostname,
            path: attrs.get('path') || '/',
            httpOnly: attrs.has('httponly'),
            secure: attrs.has('secure'),
            sameSite: (attrs.get('samesite') ?? 'Lax') as 'Lax' | 'Strict' | 'None',
            expires: expires ? Math.floor(Date.parse(expires) / 1000) : -1,
          },
        ])
        // The browser context now carries the session: the API knows it as this shopper.
        const session = await target.request.get(`${origin}/v1/growth/authenticate-session`)
        expect(session.status(), 'the session cookie signs the browser context in').toBe(200)
        expect(((await session.json()) as { user: { id: string } }).user.id).toBe(user.id)
        return { ...user, name: `${user.firstName} ${user.lastName}` }
      } finally {
        await api.dispose()
      }
    })
  },
})

export { expect }
