/**
 * Screenshots of every loop page (campaigns, sheets, the store, the coming-soon forms) and the
 * /utils pages of issue 7, at 390 and 1280 px, for looking at before a change ships:
 * `npm run build && npx tsx scripts/screenshots-loop.ts` (into /tmp/shots/loop/, or the folder
 * given as the first argument). It starts its own server on a fresh demo database.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, startShotsServer } from './support/shots'

const PORT = Number(process.env.SHOTS_PORT ?? 3191)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/loop')
const DATA_DIR = '.data/shots-loop'
const WIDTHS = [390, 1280] as const

const campaignPages = {
  landing: '/loop',
  modal: '/loop/modal',
  'modal-holidays': '/loop/modal/holidays',
  'modal-new-user': '/loop/modal/new-user',
  'mothers-day': '/loop/mothers-day',
  'mothers-day-b': '/loop/mothers-day-b',
  'fathers-day': '/loop/fathers-day',
  'grandparents-day': '/loop/grandparents-day',
  store: '/loop/store/',
}

async function shoot(page: Page, name: string, url: string, before?: (page: Page) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.goto(`${BASE}${url}`)
    await page.waitForLoadState('networkidle', { timeout: 90_000 })
    if (before) await before(page)
    // Lazy photos below the fold load once scrolled to.
    await page.evaluate(async () => {
      for (const img of document.querySelectorAll('img')) img.loading = 'eager'
      await Promise.all([...document.images].map((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true })))))
    })
    const file = path.join(OUT, `${name}-${width}.png`)
    await page.screenshot({ path: file, fullPage: !before })
    console.log(file)
  }
}

const signInAs = (context: BrowserContext, firstName: string) => demoSignIn(BASE, context, firstName)

async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as unknown as { __TSR_ROUTER__?: unknown }).__TSR_ROUTER__))
}

async function openForm(page: Page, button: string) {
  await waitForHydration(page)
  await page.getByRole('button', { name: button }).click()
  await page.getByRole('dialog').waitFor()
}

async function main() {
  await mkdir(OUT, { recursive: true })
  const server = await startShotsServer(PORT, DATA_DIR)
  const browser = await chromium.launch(chromiumLaunch)
  try {
    const visitor = await browser.newPage()
    for (const [name, url] of Object.entries(campaignPages)) await shoot(visitor, `${name}-signed-out`, url)
    await shoot(visitor, 'utils-smokescreens-empty', '/utils/smokescreens')

    const maya = await browser.newContext()
    await signInAs(maya, 'Maya')
    const mayaPage = await maya.newPage()
    for (const [name, url] of Object.entries(campaignPages)) if (name !== 'landing') await shoot(mayaPage, name, url)

    // A failed photo load, reached by client navigation while server functions are refused.
    await shoot(mayaPage, 'mothers-day-photos-failed', '/loop', async (page) => {
      await waitForHydration(page)
      await page.route('**/_serverFn/**', (route) => (route.request().method() === 'GET' ? route.abort('connectionrefused') : route.continue()))
      await page.getByRole('link', { name: /For the one who took all the photos/ }).click()
      await page.getByTestId('campaign-photos-failed').waitFor({ timeout: 30_000 })
      await page.unroute('**/_serverFn/**')
    })
    await shoot(mayaPage, 'form-waitlist', '/loop/store/', (page) => openForm(page, 'Notify me about the photo calendar'))
    await shoot(mayaPage, 'form-delivery-errors', '/loop/store/', async (page) => {
      await openForm(page, 'Deliver to me: canvas print')
      await page.getByLabel('ZIP code').fill('1220')
      await page.getByRole('dialog').getByRole('button', { name: 'Count me in' }).click()
      await page.getByTestId('smokescreen-problem').waitFor()
    })
    await shoot(mayaPage, 'form-thanks', '/loop/mothers-day', async (page) => {
      await openForm(page, 'Notify me about the photo book')
      await page.getByRole('dialog').getByRole('button', { name: 'Notify me' }).click()
      await page.getByTestId('smokescreen-thanks').waitFor()
    })
    await shoot(mayaPage, 'form-already', '/loop/modal', async (page) => {
      await openForm(page, 'Notify me about the photo book')
      await page.getByRole('dialog').getByRole('button', { name: 'Notify me' }).click()
      await page.getByTestId('smokescreen-thanks').waitFor()
    })

    // A few more sign-ups so the report has a ranking to show.
    for (const [i, product] of ['photo-mug', 'photo-mug', 'canvas-print'].entries()) {
      await visitor.request.post(`${BASE}/v1/smokescreens/waitlist`, {
        data: { product, sourcePage: '/loop/store/', name: `Shopper ${i}`, email: `shopper${i}@example.com`, note: '' },
        headers: { origin: BASE },
      })
    }
    await shoot(visitor, 'utils-index', '/utils')
    await shoot(visitor, 'utils-status', '/utils/status')
    await shoot(visitor, 'utils-smokescreens', '/utils/smokescreens')
  } finally {
    server.kill()
    await browser.close().catch(() => undefined)
  }
}

await main()
