/**
 * Screenshots of the graded print quality (issue 32, item 3; decision 060) at 390 and 1280 px, with axe on each:
 * `npm run build && npx tsx scripts/screenshots-print-quality.ts` (into /tmp/shots/quality/, or the folder given).
 * The star designer with a great and a good photo, then one that may look soft, and the preview dialog's grades.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { shootViewport, startShotsServer } from './support/shots'

const PORT = Number(process.env.SHOTS_PORT ?? 5310)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/quality')
const WIDTHS = [390, 1280] as const

/** A screenshot of the viewport, with `scrollTo` (a selector) scrolled to the middle of it first. */
const shot = (page: Page, name: string, scrollTo?: string) => shootViewport(page, OUT, name, scrollTo ? { selector: scrollTo, block: 'center' } : undefined)

const PHOTOS = 'section[aria-labelledby="photos-heading"]'

async function pick(page: Page, slot: 'left' | 'right', nth: number) {
  await page.getByRole('button', { name: new RegExp(`^(Choose|Change) photo for the ${slot} ornament$`) }).click()
  const dialog = page.getByRole('dialog', { name: `Choose a photo for the ${slot} ornament` })
  await dialog.getByTestId('album-grid').getByRole('button').nth(nth).click()
  await dialog.waitFor({ state: 'hidden' })
}

/** Selects the slot's photo and sets its zoom with the slider. */
async function zoom(page: Page, slot: 'left' | 'right', to: number) {
  await page
    .locator(`[data-cell-id$="-${slot}"]`)
    .getByRole('button', { name: new RegExp(`^${slot} ornament`, 'i') })
    .click()
  await page.locator(`[data-cell-id$="-${slot}"][data-selected="true"]`).waitFor()
  await page.getByRole('slider', { name: 'Zoom' }).fill(String(to))
  await page
    .getByText(`${to.toFixed(1)}×`)
    .first()
    .waitFor()
}

await mkdir(OUT, { recursive: true })
const server = await startShotsServer(PORT, '.data/shots-print-quality')
const browser = await chromium.launch(chromiumLaunch)
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } })
    await context.request.post(`${BASE}/v1/demo/guests`, { headers: { origin: BASE }, timeout: 180_000 })
    const page = await context.newPage()
    await page.goto(`${BASE}/photo-products/ornaments/72965`)
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    await page.locator('[data-testid="preview-stage"][data-state="ready"]').waitFor({ timeout: 60_000 })
    await page.getByRole('button', { name: 'No thanks' }).click()
    await pick(page, 'left', 0)
    await pick(page, 'right', 3)
    await page.locator('[data-cell-id$="-right"] [data-testid="print-quality"][data-grade="great"]').waitFor({ timeout: 20_000 })

    // Great on the left (1×), good on the right (2.5×).
    await zoom(page, 'right', 2.5)
    await page.locator('[data-cell-id$="-right"] [data-testid="print-quality"][data-grade="good"]').waitFor()
    await shot(page, `designer-great-good-${width}`, PHOTOS)

    // May look soft on the left (4.5×).
    await zoom(page, 'left', 4.5)
    await page.locator('[data-cell-id$="-left"] [data-testid="print-quality"][data-grade="soft"]').waitFor()
    await shot(page, `designer-soft-${width}`, PHOTOS)

    // The server's grades in the preview dialog.
    await page.getByRole('button', { name: 'Preview my ornament' }).click()
    const dialog = page.getByRole('dialog', { name: 'Your star ornaments' })
    await dialog.getByTestId('preview-print-quality').waitFor({ timeout: 90_000 })
    for (const img of await dialog.getByRole('img').all()) {
      await img.evaluate((el: HTMLImageElement) => el.decode().catch(() => undefined))
    }
    await shot(page, `preview-dialog-${width}`)
    await shot(page, `preview-dialog-quality-${width}`, '[data-testid="preview-print-quality"]')
    await context.close()
  }
} finally {
  await browser.close()
  server.kill('SIGTERM')
}
