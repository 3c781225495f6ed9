import { SESSION_COOKIE } from '../../app/contract/headers'
import { servers } from '../../playwright.config'
import { expect, test } from './fixtures'

/** The `login` fixture itself (tests/e2e/fixtures.ts): the rest of the suite trusts what it answers. */
test.describe('the login fixture', () => {
  test('signs the browser in as a new shopper of its own, with the cookie the API sets, and no page walked', async ({ page, context, browser, login }) => {
    const visited: string[] = []
    page.on('request', (r) => void (r.resourceType() === 'document' && visited.push(r.url())))
    const shopper = await login()
    expect(visited).toEqual([])
    expect(shopper.name).toBe(`${shopper.firstName} ${shopper.lastName}`)

    const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE)
    expect(cookie).toMatchObject({ domain: 'localhost', path: '/', httpOnly: true, secure: false, sameSite: 'Lax' })
    expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000)

    // The store's own pages know the shopper: the account menu is theirs, the cart is empty.
    await page.goto('/photo-products/cart')
    await expect(page.getByRole('button', { name: /your account/ })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()

    // Another browser's shopper is another account.
    const other = await browser.newContext()
    const second = await login({ context: other })
    expect(second.id).not.toBe(shopper.id)
    expect(second.email).not.toBe(shopper.email)
    await other.close()
  })

  test('signs in under the host the test opens the store on', async ({ context, login }) => {
    const origin = `http://127.0.0.1:${servers.main.port}`
    const shopper = await login({ origin })
    const cookie = (await context.cookies(origin)).find((c) => c.name === SESSION_COOKIE)
    expect(cookie?.domain).toBe('127.0.0.1')
    // Host-only, as the API set it: not sent to localhost.
    expect((await context.cookies(`http://localhost:${servers.main.port}`)).some((c) => c.name === SESSION_COOKIE)).toBe(false)
    const session = await context.request.get(`${origin}/v1/growth/authenticate-session`)
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(shopper.id)
  })

  test('makes more shoppers than the demo API makes an hour for one address', async ({ login, request }) => {
    // The demo API refuses the 61st guest an hour from one address (app/api/routes/demo.ts): a whole run signs in more.
    const ids = new Set<string>()
    for (let i = 0; i < 61; i++) ids.add((await login()).id)
    expect(ids.size).toBe(61)
    // The limit itself still holds for each address: the fixture does not switch it off.
    let status = 0
    for (let i = 0; i < 61 && status !== 429; i++) status = (await request.post('/v1/demo/guests', { headers: { 'x-forwarded-for': '198.19.0.1' } })).status()
    expect(status).toBe(429)
  })

  test('signs in a seeded demo account when asked, for a test that needs another family', async ({ login }) => {
    const maya = await login({ demoAccount: 'Maya' })
    expect(maya.name).toBe('Maya Rivera')
  })
})
