/**
 * Screenshots of every referral page and state at 390 and 1280 px, for looking at before a change
 * ships: `npm run build && npx tsx scripts/screenshots-referral.ts` (into /tmp/shots/referral/, or
 * the folder given as the first argument). It starts its own server on a fresh demo database, makes
 * an advocate with friends in each state through the API and the store, then visits each page.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, readJson, startShotsServer } from './support/shots'
import { LOCAL_TEST_CARDS } from '../app/contract/cart'

const PORT = Number(process.env.SHOTS_PORT ?? 3190)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/referral')
const DATA_DIR = '.data/shots-referral'
const WIDTHS = [390, 1280] as const

async function shoot(page: Page, name: string, url: string, before?: (page: Page) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.goto(`${BASE}${url}`)
    await page.waitForLoadState('networkidle')
    if (before) await before(page)
    const file = path.join(OUT, `${name}-${width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    console.log(file)
  }
}

const signInAs = (context: BrowserContext, firstName: string) => demoSignIn(BASE, context, firstName)

/** A new family that opened the invite and claimed it; returns its context and first name. */
async function friendWhoRedeemed(browser: Awaited<ReturnType<typeof chromium.launch>>, code: string) {
  const context = await browser.newContext()
  await context.request.get(`${BASE}/v1/growth/referral-codes/${code}`)
  const { user } = await readJson<{ user: { firstName: string } }>(await context.request.post(`${BASE}/v1/demo/guests`, { headers: { origin: BASE } }))
  const res = await context.request.post(`${BASE}/v1/growth/referred/redemptions`, { data: { timezone: 'America/New_York' }, headers: { origin: BASE } })
  if (res.status() !== 201) throw new Error(`redeeming failed: ${res.status()} ${await res.text()}`)
  return { context, firstName: user.firstName }
}

/** The friend's first order, through the designer and the local checkout, so the advocate's reward is approved. */
async function firstOrder(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`${BASE}/photo-products/ornaments/72965`)
  await page.waitForFunction(() => Boolean((window as unknown as { __TSR_ROUTER__?: unknown }).__TSR_ROUTER__))
  await page.locator('[data-testid="preview-stage"][data-state="ready"]').waitFor({ timeout: 120_000 })
  for (const [slot, nth] of [
    ['left', 1],
    ['right', 2],
  ] as const) {
    await page.getByRole('button', { name: new RegExp(`^(Choose|Change) photo for the ${slot} ornament$`) }).click()
    const dialog = page.getByRole('dialog', { name: `Choose a photo for the ${slot} ornament` })
    await dialog.getByTestId('album-grid').getByRole('button').nth(nth).click()
    await dialog.waitFor({ state: 'hidden' })
  }
  await page
    .getByTestId('preview-stage')
    .getByText('Loading photo…')
    .waitFor({ state: 'detached', timeout: 30_000 })
    .catch(() => undefined)
  await page.getByRole('button', { name: 'Preview my ornament' }).click()
  await page
    .getByRole('dialog', { name: 'Your star ornaments' })
    .getByRole('button', { name: /^Add to cart/ })
    .click({ timeout: 120_000 })
  await page.waitForURL(/\/photo-products\/cart$/, { timeout: 60_000 })
  await page.getByRole('button', { name: 'Checkout' }).first().click()
  await page.waitForURL(/\/utils\/checkout\//)
  await page.waitForLoadState('networkidle')
  await page.getByLabel('Full name').fill('Friend Guest')
  await page.getByLabel('Address line 1').fill('8 Juniper Court')
  await page.getByLabel('City').fill('Boise')
  await page.getByLabel('State').selectOption('ID')
  await page.getByLabel('ZIP code').fill('83702')
  await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
  await page.getByRole('button', { name: /^Pay \$/ }).click()
  await page.waitForURL(/\/photo-products\/checkout\/complete/, { timeout: 60_000 })
  await page.getByRole('heading', { name: /^Thank you/ }).waitFor({ timeout: 60_000 })
}

async function main() {
  await mkdir(OUT, { recursive: true })
  const server = await startShotsServer(PORT, DATA_DIR)
  const browser = await chromium.launch(chromiumLaunch)
  try {
    const visitor = await browser.newPage()
    await shoot(visitor, 'home-signed-out', '/referral')
    await shoot(visitor, 'redeem-signed-out', '/referral/redeem')
    await shoot(visitor, 'landing-unknown-code', '/referral/r/NOPE-0000-0000')
    await shoot(visitor, 'redemption-signed-out', '/referral/advocate/MAYA-0000-0000/redemptions/00000000-0000-4000-8000-000000000000')

    const maya = await browser.newContext()
    await signInAs(maya, 'Maya')
    const mayaPage = await maya.newPage()
    await shoot(mayaPage, 'dashboard-empty', '/referral')
    const { code } = await readJson<{ code: string }>(await maya.request.get(`${BASE}/v1/growth/advocate/redemptions`))

    for (const variant of ['refer', 'r', 'r0']) await shoot(visitor, `landing-${variant}`, `/referral/${variant}/${code}`)
    await shoot(visitor, 'redeem-signed-out-with-invite', `/referral/redeem?code=${code}`)
    await shoot(visitor, 'demo-sign-in-redirect', `/utils/demo-sign-in?redirect=${encodeURIComponent(`/referral/redeem?code=${code}`)}`)

    // A friend signed in with the invite remembered, before claiming it.
    const claimer = await browser.newContext()
    await claimer.request.get(`${BASE}/v1/growth/referral-codes/${code}`)
    await claimer.request.post(`${BASE}/v1/demo/guests`, { headers: { origin: BASE } })
    await shoot(await claimer.newPage(), 'redeem-claim', '/referral/redeem')

    const pending = await friendWhoRedeemed(browser, code)
    await shoot(await pending.context.newPage(), 'redeem-redeemed', '/referral/redeem')
    const approved = await friendWhoRedeemed(browser, code)
    await firstOrder(await approved.context.newPage())
    const other = await browser.newContext()
    await other.request.post(`${BASE}/v1/demo/guests`, { headers: { origin: BASE } })
    await shoot(await other.newPage(), 'redeem-no-invite', '/referral/redeem')

    await shoot(mayaPage, 'dashboard', '/referral')
    // The focus ring on the pine share card, reached from the keyboard.
    await shoot(mayaPage, 'dashboard-focus', '/referral', async (page) => {
      await page.getByRole('button', { name: 'Copy code' }).focus()
      await page.keyboard.press('Shift+Tab')
    })
    const state = await readJson<{ redemptions: { id: string; status: string }[] }>(await maya.request.get(`${BASE}/v1/growth/advocate/redemptions`))
    for (const r of state.redemptions) await shoot(mayaPage, `redemption-${r.status}`, `/referral/advocate/${code}/redemptions/${r.id}`)
    await shoot(mayaPage, 'past', `/referral/advocate/${code}/redemptions/${state.redemptions[0]!.id}/past`)
    await shoot(mayaPage, 'redemption-not-found', `/referral/advocate/${code}/redemptions/00000000-0000-4000-8000-000000000000`)
    await shoot(mayaPage, 'redeem-own-invite-refused', `/referral/redeem?code=${code}`, async (page) => {
      await page.getByRole('button', { name: /^Claim my/ }).click()
      await page.getByRole('alert').filter({ hasText: 'own invite' }).waitFor()
    })
  } finally {
    await browser.close()
    server.kill()
  }
}

await main()
