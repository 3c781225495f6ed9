/**
 * Screenshots of issue 32's designer help at 390 and 1280 px, with axe on each:
 * `npm run build && npx tsx scripts/screenshots-designer-helps.ts` (into /tmp/shots/designer-helps/, or the folder given).
 *  - smart vs centred: one photo with its subject off-centre in both cells of the star, the left as the designer
 *    places it now (smartTransform), the right as it used to (centred, kept in the draft);
 *  - the quality grades on the live preview: a photo zoomed until it may look soft.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { demoSignIn, readJson, shootViewport, startShotsServer } from './support/shots'

const PORT = Number(process.env.SHOTS_PORT ?? 5320)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/designer-helps')
const WIDTHS = [390, 1280] as const
const STAR = 72965

type Photo = { id: string; url: string; width: number; height: number; caption: string | null; focalPoint: { x: number; y: number } | null }

const shot = (page: Page, name: string, scrollTo?: string) => shootViewport(page, OUT, name, scrollTo ? { selector: scrollTo, block: 'start' } : undefined)

await mkdir(OUT, { recursive: true })
const server = await startShotsServer(PORT, '.data/shots-designer-helps')
const browser = await chromium.launch(chromiumLaunch)
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } })
    // The demo album is drawn on the first call: give it time.
    await context.request.get(`${BASE}/v1/demo/users`, { timeout: 300_000 })
    await demoSignIn(BASE, context, 'Maya')
    const { families } = await readJson<{ families: { familyId: string }[] }>(await context.request.get(`${BASE}/v1/keepsake-photos`))
    const { photos } = await readJson<{ photos: Photo[] }>(
      await context.request.get(`${BASE}/v1/keepsake-photos/${families[0]!.familyId}?limit=100`, { timeout: 120_000 }),
    )
    // The photo whose subject is furthest from the centre without sitting on the edge.
    const offCentre = (p: Photo) => (p.focalPoint ? Math.hypot(p.focalPoint.x - 0.5, p.focalPoint.y - 0.5) : -1)
    const inside = photos.filter((p) => p.focalPoint && [p.focalPoint.x, p.focalPoint.y].every((v) => v > 0.1 && v < 0.9))
    const photo = inside.sort((a, b) => offCentre(b) - offCentre(a))[0]!
    console.log(`photo: ${photo.caption} ${photo.width}×${photo.height}, focal point (${photo.focalPoint!.x}, ${photo.focalPoint!.y})`)

    const page = await context.newPage()
    await page.goto(`${BASE}/`)
    const draftPhoto = { id: photo.id, url: photo.url, width: photo.width, height: photo.height, focalPoint: photo.focalPoint }
    await page.evaluate(([key, draft]) => localStorage.setItem(key, JSON.stringify(draft)), [
      `keepsake.design.${STAR}`,
      {
        photos: { 'star-left': draftPhoto, 'star-right': draftPhoto },
        // The left has no kept placement (the designer places it); the right keeps the old centred one.
        transforms: { 'star-right': { x: 0, y: 0, zoom: 1, rotation: 0 } },
        backSideId: null,
        editedAt: new Date().toISOString(),
        owner: null,
      },
    ] as const)
    await page.goto(`${BASE}/photo-products/ornaments/${STAR}`)
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
    await page.locator('[data-testid="preview-stage"][data-state="ready"]').waitFor({ timeout: 120_000 })
    const noThanks = page.getByRole('button', { name: 'No thanks' })
    if (await noThanks.isVisible()) await noThanks.click()
    await page.getByText('Loading photo…').first().waitFor({ state: 'detached', timeout: 60_000 })
    await page.waitForTimeout(600)
    await shot(page, `smart-left-centred-right-${width}`, '[data-testid="preview-pane"]')

    // Zoomed in until the right photo may look soft: the stage marks it, the slot says why.
    await page
      .locator('[data-cell-id$="-right"]')
      .getByRole('button', { name: /^right ornament/i })
      .click()
    await page.getByRole('slider', { name: 'Zoom' }).fill('4.5')
    await page.locator('[data-testid="stage-print-quality"]').first().waitFor({ timeout: 20_000 })
    await page.waitForTimeout(600)
    await shot(page, `quality-on-stage-${width}`, '[data-testid="preview-pane"]')
    await shot(page, `quality-in-slots-${width}`, 'section[aria-labelledby="photos-heading"]')
    await context.close()
  }
} finally {
  await browser.close()
  server.kill('SIGTERM')
}
