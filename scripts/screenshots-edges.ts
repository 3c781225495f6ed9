/**
 * npx tsx scripts/screenshots-edges.ts — the pages issue 15 touched, at 390 and 1280 px, into
 * /tmp/shots/edges/, with axe run on each (needs a build; starts its own server on a fresh demo database).
 */
import AxeBuilder from '@axe-core/playwright'
import { chromium } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, startShotsServer } from './support/shots'

const port = 3190
const base = `http://localhost:${port}`
const out = '/tmp/shots/edges'
const server = await startShotsServer(port, '.data/shots-edges')
const browser = await chromium.launch(chromiumLaunch)
const shots: { name: string; path: string; signIn?: boolean; act?: (page: import('playwright-core').Page) => Promise<void> }[] = [
  {
    name: 'egift-cents-refused',
    path: '/egifts',
    signIn: true,
    act: async (page) => {
      await page.getByRole('radio', { name: 'Other amount' }).check()
      await page.getByLabel('Your amount, in whole dollars').fill('12.50')
      await page.getByRole('button', { name: 'Continue to payment' }).click()
      await page.getByTestId('field-error').waitFor()
    },
  },
  { name: 'outbox-signed-out', path: '/utils/outbox' },
  { name: 'malformed-url', path: '/%E0%A4%A' },
  { name: 'invite-too-long', path: `/referral/r/${'A'.repeat(240)}` },
  { name: 'offer-unknown', path: '/fmn/offers/no-such-offer' },
  { name: 'chosen-tray', path: '/photo-products/photos', signIn: true },
  { name: 'loop-modal-sheet', path: '/loop/modal/holidays' },
  {
    name: 'smokescreen-form-messages',
    path: '/loop/grandparents-day',
    act: async (page) => {
      await page.getByRole('button', { name: 'Deliver to me: canvas print' }).click()
      const dialog = page.getByRole('dialog', { name: 'Deliver a canvas print to me' })
      await dialog.getByLabel('E-mail').fill('grace@')
      await dialog.getByRole('button', { name: 'Count me in' }).click()
      await dialog.getByTestId('field-error').first().waitFor()
    },
  },
]
try {
  for (const width of [390, 1280]) {
    for (const shot of shots) {
      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } })
      if (shot.signIn) await demoSignIn(base, context, 'Maya')
      const page = await context.newPage()
      const res = await page.goto(`${base}${shot.path}`)
      await page.waitForLoadState('networkidle')
      if (shot.act) await shot.act(page)
      await page.screenshot({ path: `${out}/${shot.name}-${width}.png`, fullPage: width === 1280 })
      const axe = await new AxeBuilder({ page }).analyze()
      console.log(
        `${shot.name} @${width}: status ${res?.status()}, axe violations ${axe.violations.length}${axe.violations.length ? ` (${axe.violations.map((v) => v.id).join(', ')})` : ''}`,
      )
      await context.close()
    }
  }
} finally {
  await browser.close()
  server.kill()
}
