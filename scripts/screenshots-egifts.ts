/**
 * Screenshots of every e-gift page and state at 390 and 1280 px, for looking at before a change
 * ships: `npm run build && npx tsx scripts/screenshots-egifts.ts` (into /tmp/shots/egifts/, or the
 * folder given as the first argument). It starts its own server on a fresh demo database, buys gifts
 * in each state through the API, then visits each page.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type APIRequestContext, type BrowserContext, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, readJson, startShotsServer } from './support/shots'
import { LOCAL_TEST_CARDS } from '../app/contract/cart'
import type { EgiftPurchase, OutboxEmail } from '../app/contract/egifts'

const PORT = Number(process.env.SHOTS_PORT ?? 3400)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/egifts')
const DATA_DIR = '.data/shots-egifts'
const WIDTHS = [390, 1280] as const
const headers = { origin: BASE, 'x-keepsake-timezone': 'America/New_York' }

/** `scrolled`: keep the scroll `before` left and shoot the viewport only (an off-screen sandboxed frame is not painted in a full-page shot). */
async function shoot(page: Page, name: string, url: string, before?: (page: Page, width: number) => Promise<void>, { scrolled = false } = {}) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.goto(`${BASE}${url}`)
    await page.waitForLoadState('networkidle')
    await page.waitForFunction(() => Boolean((window as unknown as { __TSR_ROUTER__?: unknown }).__TSR_ROUTER__))
    if (before) await before(page, width)
    // Toasts fade out; the page is what is being looked at.
    await page
      .locator('[data-sonner-toast]')
      .waitFor({ state: 'detached', timeout: 15_000 })
      .catch(() => undefined)
    // A full-page shot draws the sticky header where the page was scrolled to: start from the top.
    if (!scrolled) await page.evaluate(() => window.scrollTo(0, 0))
    const file = path.join(OUT, `${name}-${width}.png`)
    await page.screenshot({ path: file, fullPage: !scrolled })
    console.log(file)
  }
}

const signInAs = (context: BrowserContext, firstName: string) => demoSignIn(BASE, context, firstName)

const addDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

async function buy(
  request: APIRequestContext,
  gift: Partial<{ amountCents: number; recipientName: string; recipientEmail: string; message: string; sendOn: string }>,
) {
  const res = await request.post(`${BASE}/v1/egifts/purchases`, {
    headers,
    data: { amountCents: 5000, recipientName: 'Gran', recipientEmail: 'gran@example.com', senderName: 'Maya', message: '', ...gift },
  })
  if (res.status() !== 201) throw new Error(`buying failed: ${res.status()} ${await res.text()}`)
  return readJson<EgiftPurchase>(res)
}

async function pay(request: APIRequestContext, gift: EgiftPurchase) {
  const res = await request.post(`${BASE}/v1/checkout/local/${gift.checkoutSessionId}/pay`, { headers, data: { cardNumber: LOCAL_TEST_CARDS.succeeds } })
  if (res.status() !== 200) throw new Error(`paying failed: ${res.status()} ${await res.text()}`)
}

/** The gift's code, read from its e-mail in the outbox as its recipient would. */
async function codeOf(request: APIRequestContext, recipientEmail: string) {
  const { emails } = await readJson<{ emails: OutboxEmail[] }>(await request.get(`${BASE}/v1/demo/outbox`))
  const email = emails.find((e) => e.to === recipientEmail)
  return email!.text.match(/KEEP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)![0]
}

/** Waits until the job worker has e-mailed every gift due now. */
async function mailSent(request: APIRequestContext) {
  for (let i = 0; i < 40; i++) {
    const { emails } = await readJson<{ emails: OutboxEmail[] }>(await request.get(`${BASE}/v1/demo/outbox`))
    if (!emails.some((e) => e.status === 'scheduled' && Date.parse(e.sendAfter) <= Date.now())) return
    await new Promise((r) => setTimeout(r, 500))
  }
}

async function main() {
  await mkdir(OUT, { recursive: true })
  const server = await startShotsServer(PORT, DATA_DIR)
  const browser = await chromium.launch(chromiumLaunch)
  try {
    const visitor = await browser.newPage()
    await shoot(visitor, 'egifts-signed-out', '/egifts')
    await shoot(visitor, 'redeem-signed-out', '/egifts/redeem?code=KEEP-7KQ3-XP9D-2M4R')
    await shoot(visitor, 'outbox-empty', '/utils/outbox')

    const maya = await browser.newContext()
    await signInAs(maya, 'Maya')
    const mayaPage = await maya.newPage()
    await shoot(mayaPage, 'egifts-empty', '/egifts')
    await shoot(mayaPage, 'egifts-errors', '/egifts', async (page) => {
      await page.getByRole('radio', { name: 'Other amount' }).check()
      await page.getByLabel('Your amount, in whole dollars').fill('5')
      await page.getByLabel('Their name').fill('Gran')
      await page.getByLabel('Their e-mail address').fill('gran@example')
      await page.getByLabel(/^A message/).fill('Happy holidays! '.repeat(20))
      await page.getByRole('button', { name: /^Continue to pay/ }).click()
      await page.getByTestId('field-error').first().waitFor()
    })
    await shoot(mayaPage, 'egifts-filled', '/egifts', async (page) => {
      await page.getByRole('radio', { name: '$75' }).check()
      await page.getByLabel('Their name').fill('Grandpa Joe')
      await page.getByLabel('Their e-mail address').fill('joe@example.com')
      await page.getByLabel(/^A message/).fill('For the tree in the front room. Love you lots — see you at Christmas!')
      await page.getByRole('radio', { name: 'Send on a day I choose' }).check()
      await page.getByLabel('Send on', { exact: true }).fill(addDays(20))
      // The keyboard focus ring on the amount chips: back from the next field with the keyboard.
      await page.getByLabel('Their name').focus()
      await page.keyboard.press('Shift+Tab')
    })

    // Gifts in each state.
    const cancelled = await buy(maya.request, { recipientName: 'Uncle Ray', recipientEmail: 'ray@example.com', amountCents: 2500 })
    await maya.request.post(`${BASE}/v1/photo-products-cart/checkout-session/${cancelled.checkoutSessionId}/cancel`, { headers })
    const redeemed = await buy(maya.request, { recipientName: 'Aunt Bea', recipientEmail: 'bea@example.com', amountCents: 7500, message: 'For the new house!' })
    await pay(maya.request, redeemed)
    const scheduled = await buy(maya.request, {
      recipientName: 'Grandpa Joe',
      recipientEmail: 'joe@example.com',
      amountCents: 10000,
      sendOn: addDays(30),
      message: 'Merry Christmas, Grandpa!',
    })
    await pay(maya.request, scheduled)
    const paid = await buy(maya.request, { message: 'Happy holidays, Gran! Can’t wait to see which photos you choose for the tree.' })
    await pay(maya.request, paid)
    const awaiting = await buy(maya.request, { recipientName: 'Sam', recipientEmail: 'sam.okafor@example.com', amountCents: 4000, message: 'Happy birthday!' })
    await mailSent(maya.request)

    const bea = await browser.newContext()
    await bea.request.post(`${BASE}/v1/demo/guests`, { headers })
    await bea.request.post(`${BASE}/v1/egifts/redeem`, { headers, data: { code: await codeOf(maya.request, 'bea@example.com') } })

    await shoot(mayaPage, 'egifts-with-gifts', '/egifts')
    await shoot(mayaPage, 'egifts-cancelled-notice', `/egifts?cancelled=${cancelled.id}`)
    await shoot(mayaPage, 'checkout-gift', awaiting.checkoutUrl!.replace(BASE, ''))
    await shoot(mayaPage, 'checkout-gift-declined', awaiting.checkoutUrl!.replace(BASE, ''), async (page) => {
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.declined)
      await page.getByRole('button', { name: /^Pay / }).click()
      await page.getByText('declined').first().waitFor()
    })
    await shoot(mayaPage, 'complete', `/egifts/complete?gift=${paid.id}`)
    await shoot(mayaPage, 'complete-scheduled', `/egifts/complete?gift=${scheduled.id}`)
    await shoot(mayaPage, 'complete-redeemed', `/egifts/complete?gift=${redeemed.id}`)
    await shoot(mayaPage, 'complete-cancelled', `/egifts/complete?gift=${cancelled.id}`)
    await shoot(mayaPage, 'complete-not-found', '/egifts/complete?gift=00000000-0000-4000-8000-000000000000')
    await shoot(visitor, 'complete-signed-out', `/egifts/complete?gift=${paid.id}`)

    const guest = await browser.newContext()
    await guest.request.post(`${BASE}/v1/demo/guests`, { headers })
    const guestPage = await guest.newPage()
    await shoot(guestPage, 'redeem-empty', '/egifts/redeem')
    await shoot(guestPage, 'redeem-prefilled', `/egifts/redeem?code=${await codeOf(maya.request, 'gran@example.com')}`)
    await shoot(guestPage, 'redeem-success', '/egifts/redeem', async (page, width) => {
      const recipientEmail = `cousin${width}@example.com`
      const gift = await buy(maya.request, {
        recipientName: 'Cousin Lee',
        recipientEmail,
        amountCents: 5000,
        message: 'Something for the twins’ first Christmas ❤',
      })
      await pay(maya.request, gift)
      await page.getByLabel('Gift code').fill(await codeOf(maya.request, recipientEmail))
      await page.getByRole('button', { name: 'Redeem my gift' }).click()
      await page.getByTestId('egift-redeemed').waitFor()
    })
    await shoot(guestPage, 'redeem-refused', '/egifts/redeem', async (page) => {
      await page.getByLabel('Gift code').fill(await codeOf(maya.request, 'bea@example.com'))
      await page.getByRole('button', { name: 'Redeem my gift' }).click()
      await page.getByTestId('egift-refusal').waitFor()
    })
    await shoot(guestPage, 'redeem-malformed', '/egifts/redeem', async (page) => {
      await page.getByLabel('Gift code').fill('KEEP-12')
      await page.getByRole('button', { name: 'Redeem my gift' }).click()
      await page.getByTestId('field-error').waitFor()
    })

    await mailSent(maya.request)
    await shoot(mayaPage, 'outbox', '/utils/outbox')
    await shoot(mayaPage, 'outbox-expanded', '/utils/outbox', async (page) => {
      await page.getByTestId('outbox-email').filter({ hasText: 'gran@example.com' }).locator('summary').click()
    })
    await shoot(
      mayaPage,
      'outbox-expanded-html',
      '/utils/outbox',
      async (page) => {
        const email = page.getByTestId('outbox-email').filter({ hasText: 'gran@example.com' })
        await email.locator('summary').click()
        await email.frameLocator('iframe').getByText('Redeem your gift').waitFor()
        await email.locator('iframe').evaluate((frame) => frame.scrollIntoView({ block: 'end' }))
        await page.waitForTimeout(300)
      },
      { scrolled: true },
    )
  } finally {
    await browser.close()
    server.kill()
  }
}

await main()
