/**
 * Screenshots of the pages issue 32's small things changed, at 390 and 1280 px, with axe on each:
 * `npm run build && npx tsx scripts/screenshots-issue32.ts` (into /tmp/shots/issue32/, or the folder given).
 * The broken-link page, the e-gift form with an amount it refuses, an advocate's own invite, My designs.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, readJson, startShotsServer } from './support/shots'

const PORT = Number(process.env.SHOTS_PORT ?? 3410)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/issue32')
const WIDTHS = [390, 1280] as const

async function shoot(page: Page, name: string, url: string, before?: (page: Page) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.goto(`${BASE}${url}`)
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    if (before) await before(page)
    await page.evaluate(() => window.scrollTo(0, 0))
    const file = path.join(OUT, `${name}-${width}.png`)
    await page.screenshot({ path: file, fullPage: true })
    const axe = await new AxeBuilder({ page } as never).analyze()
    console.log(file, `axe violations: ${axe.violations.length}${axe.violations.length ? ` (${axe.violations.map((v) => v.id).join(', ')})` : ''}`)
  }
}

await mkdir(OUT, { recursive: true })
const server = await startShotsServer(PORT, '.data/shots-issue32')
const browser = await chromium.launch(chromiumLaunch)
try {
  const context = await browser.newContext({ timezoneId: 'America/New_York' })
  const page = await context.newPage()
  await shoot(page, 'bad-link', '/%E0%A4%A')
  await shoot(page, 'egift-out-of-range', '/egifts', async (p) => {
    await demoSignIn(BASE, context, 'Maya')
    await p.reload()
    await p.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    await p.getByRole('radio', { name: 'Other amount' }).check()
    await p.getByLabel('Your amount, in whole dollars').fill('501')
    await p.getByLabel('Your amount, in whole dollars').blur()
  })
  const { code } = await readJson<{ code: string }>(await context.request.get(`${BASE}/v1/growth/advocate/redemptions`))
  await shoot(page, 'own-invite', `/referral/r/${code}`)
  await shoot(page, 'orders', '/photo-products/orders')
} finally {
  await browser.close()
  server.kill('SIGTERM')
}
