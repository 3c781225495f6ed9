/**
 * The preview is what gets printed:
 *  - visual goldens: pixi (WebGL in headless Chromium) draws each shape with fixed fixture photos and
 *    transforms; the pixels are compared with tests/visual/*.png by pixelmatch (threshold 0.2, at
 *    most 0.1 % of pixels differing). UPDATE_GOLDENS=1 rewrites them; a missing one is written by a
 *    run outside CI (and said so), and fails a run in CI, where there is nothing to compare with.
 *  - agreement: pixi and the sharp print renderer draw the same design at the same scale, with
 *    checkerboard photos, turned and zoomed; at most 0.1 % of pixels may differ.
 */
import fs from 'node:fs'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'
import sharp from 'sharp'
import type { PhotoTransform } from '../../app/compositor/layout'
import type { PersonalText } from '../../app/catalogue/personal-line'
import { renderFrontWithCells } from '../../app/compositor/print.server'
import { backSides, ornamentShapes, photoCells, pseudoTemplates, type OrnamentShape } from '../../app/catalogue/ornaments'
import { expectNoSeriousAxeViolations, waitForHydration } from './support'

const fixtures = path.resolve('tests/fixtures/render')
const goldens = path.resolve('tests/visual')
const WIDTH = 640
const MAX_DIFF_RATIO = 0.001

type Spec = {
  shape: OrnamentShape
  width: number
  side?: 'front' | 'back'
  backSidePath?: string
  photos: Record<string, { url: string; transform: PhotoTransform }>
  text?: PersonalText
}
type Result = {
  rendererType: string
  width: number
  height: number
  pixels: string
  lineContrast?: Record<string, { ratio: number; best: string; poor: boolean }>
}

async function openRenderCheck(page: Page) {
  await page.route('**/__fixtures/*', (route) => {
    const file = path.join(fixtures, path.basename(new URL(route.request().url()).pathname))
    return route.fulfill({ body: fs.readFileSync(file), contentType: file.endsWith('.png') ? 'image/png' : 'image/jpeg' })
  })
  await page.goto('/utils/render-check')
  await waitForHydration(page)
  // The page is ready once it has drawn every shape (software WebGL here): waited for as long as the test may run.
  await expect(page.getByTestId('render-check-status')).toHaveAttribute('data-state', 'ready', { timeout: 0 })
}

async function renderInBrowser(page: Page, spec: Spec): Promise<Result> {
  return page.evaluate((s) => window.keepsakeRenderCheck!.render(s), spec)
}

/**
 * Share of pixels that differ (pixelmatch, threshold 0.2). Anti-aliased pixels count too: the
 * edges of enlarged checkerboard squares look like anti-aliasing to pixelmatch, and they are
 * exactly where a misplaced photo shows.
 */
function diffRatio(a: Buffer, b: Buffer, width: number, height: number, diffFile?: string) {
  const diff = diffFile ? new PNG({ width, height }) : null
  const differing = pixelmatch(a, b, diff?.data, width, height, { threshold: 0.2, includeAA: true })
  if (diff && differing > 0) fs.writeFileSync(diffFile!, PNG.sync.write(diff))
  return differing / (width * height)
}

/**
 * Writes a golden the run has just drawn. In CI a missing golden is a failure, not a new golden: a check that
 * writes what it then compares with cannot fail. Outside CI a missing one is written, and the run says so.
 */
function writeGolden(file: string, png: Buffer) {
  const relative = path.relative(process.cwd(), file)
  if (process.env.CI && !process.env.UPDATE_GOLDENS) {
    throw new Error(
      `The golden ${relative} is missing. Draw it on a developer machine with \`UPDATE_GOLDENS=1 npx playwright test tests/e2e/render.spec.ts\` ` +
        '(or run the spec without CI set), look at it, and commit it.',
    )
  }
  fs.writeFileSync(file, png)
  console.log(`Wrote the golden ${relative}: look at it, and commit it.`)
  test.info().annotations.push({ type: 'golden', description: `wrote ${relative}` })
}

const designs: Record<OrnamentShape, [PhotoTransform, PhotoTransform]> = {
  tree: [
    { x: 0, y: 0, zoom: 1, rotation: 0 },
    { x: 40, y: -60, zoom: 1.6, rotation: 14 },
  ],
  star: [
    { x: -30, y: 20, zoom: 1.3, rotation: -22 },
    { x: 0, y: 0, zoom: 2.2, rotation: 90 },
  ],
  stocking: [
    { x: 15, y: 80, zoom: 1.15, rotation: 180 },
    { x: -50, y: 0, zoom: 1.8, rotation: -37 },
  ],
}

/**
 * Personal lines per shape, in each typeface: a long one, a short one, accents and a dash; each
 * ornament its own line (the tree and stocking a different one on each, the star only on the right).
 */
const lines: Record<OrnamentShape, PersonalText> = {
  tree: {
    left: { line: 'Ava · 2026', typeface: 'lora', colour: 'snow' },
    right: { line: "Baby's first Christmas", typeface: 'dancing-script', colour: 'gold' },
  },
  star: { right: { line: "Baby's first Christmas", typeface: 'dancing-script', colour: 'gold' } },
  stocking: {
    left: { line: 'The Lees — Noël 2026', typeface: 'montserrat', colour: 'cranberry' },
    right: { line: 'Ava · 2026', typeface: 'lora', colour: 'ink' },
  },
}

/** The same lines, each with its halo (decision 058): ink around snow white and gold, snow white around cranberry and ink. */
const haloLines = (shape: OrnamentShape): PersonalText =>
  Object.fromEntries(Object.entries(lines[shape]).map(([side, line]) => [side, { ...line, halo: true }]))

type Variant = 'plain' | 'text' | 'halo'
const textOf = (shape: OrnamentShape, variant: Variant) => (variant === 'text' ? { text: lines[shape] } : variant === 'halo' ? { text: haloLines(shape) } : {})
const variantNames: Record<Variant, (shape: OrnamentShape) => string> = {
  plain: (shape) => shape,
  text: (shape) => `${shape} with a personal line on each ornament`,
  halo: (shape) => `${shape} with a haloed personal line on each ornament`,
}

function specOf(shape: OrnamentShape, files: [string, string]): Spec {
  const cells = photoCells(pseudoTemplates[shape])
  return {
    shape,
    width: WIDTH,
    photos: Object.fromEntries(cells.map((cell, i) => [cell.id, { url: `/__fixtures/${files[i]}`, transform: designs[shape][i]! }])),
  }
}

test.describe('the live preview renderer', () => {
  // Each test draws the render check page's three shapes in software WebGL before its own, and the agreement
  // tests render the print with sharp too: more than the default 30 s on a busy 2-core machine.
  test.describe.configure({ timeout: 90_000 })

  for (const [shape, variant] of ornamentShapes.flatMap((shape) => (['plain', 'text', 'halo'] as const).map((v) => [shape, v] as const))) {
    const named = variantNames[variant](shape)
    test(`${named}: pixi on WebGL matches its golden`, async ({ page }) => {
      await openRenderCheck(page)
      const result = await renderInBrowser(page, { ...specOf(shape, ['scene.jpg', 'checker-b.png']), ...textOf(shape, variant) })
      expect(result.rendererType).toBe('webgl')
      const pixels = Buffer.from(result.pixels, 'base64')
      const golden = path.join(goldens, `${shape}-front${{ plain: '', text: '-text', halo: '-text-halo' }[variant]}.png`)
      if (process.env.UPDATE_GOLDENS || !fs.existsSync(golden)) {
        writeGolden(golden, PNG.sync.write(Object.assign(new PNG({ width: result.width, height: result.height }), { data: pixels })))
      }
      const expected = PNG.sync.read(fs.readFileSync(golden))
      expect([result.width, result.height]).toEqual([expected.width, expected.height])
      const ratio = diffRatio(pixels, expected.data, result.width, result.height, test.info().outputPath(`${shape}-diff.png`))
      console.log(`${named} golden: ${(ratio * 100).toFixed(4)} % of pixels differ`)
      expect(ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO)
    })

    test(`${named}: the pixi preview and the sharp print render agree, turned and zoomed`, async ({ page }) => {
      await openRenderCheck(page)
      const spec: Spec = { ...specOf(shape, ['checker-a.png', 'checker-b.png']), ...textOf(shape, variant) }
      const result = await renderInBrowser(page, spec)
      expect(result.rendererType).toBe('webgl')
      const template = pseudoTemplates[shape]
      const { image: print, lineContrast } = await renderFrontWithCells(
        {
          template,
          photos: Object.fromEntries(
            Object.entries(spec.photos).map(([cellId, p]) => [
              cellId,
              { image: fs.readFileSync(path.join(fixtures, path.basename(p.url))), transform: p.transform },
            ]),
          ),
          text: spec.text ?? null,
        },
        WIDTH / template.width,
      )
      expect([print.width, print.height]).toEqual([result.width, result.height])
      const printOnWhite = await sharp(print.data, { raw: { width: print.width, height: print.height, channels: 4 } })
        .flatten({ background: '#ffffff' })
        .ensureAlpha()
        .raw()
        .toBuffer()
      const ratio = diffRatio(
        Buffer.from(result.pixels, 'base64'),
        printOnWhite,
        print.width,
        print.height,
        test.info().outputPath(`${shape}-agreement-diff.png`),
      )
      test.info().annotations.push({ type: 'differing pixels', description: `${(ratio * 100).toFixed(4)} %` })
      console.log(`${named} agreement: ${(ratio * 100).toFixed(4)} % of pixels differ`)
      expect(ratio).toBeLessThanOrEqual(MAX_DIFF_RATIO)
      if (spec.text) {
        // The preview and the print measure each line's contrast the same way, on (nearly) the same pixels.
        const sides = Object.keys(spec.text).sort()
        expect(Object.keys(result.lineContrast ?? {}).sort()).toEqual(sides)
        expect(Object.keys(lineContrast).sort()).toEqual(sides)
        for (const side of sides) {
          const inPreview = result.lineContrast![side]!
          const inPrint = lineContrast[side as keyof typeof lineContrast]!
          console.log(`${named} ${side} contrast: preview ${inPreview.ratio}, print ${inPrint.ratio}, best ${inPreview.best}/${inPrint.best}`)
          expect(Math.abs(inPreview.ratio - inPrint.ratio)).toBeLessThanOrEqual(0.05 * inPrint.ratio)
          expect(inPreview.poor).toBe(inPrint.poor)
        }
      }
    })
  }

  test('the back side draws the chosen design 1:1', async ({ page }) => {
    await openRenderCheck(page)
    const backSide = backSides.star[12]!
    const result = await renderInBrowser(page, { ...specOf('star', ['checker-a.png', 'checker-b.png']), side: 'back', backSidePath: backSide.backsideUrl })
    const expected = await sharp(path.resolve('public', `.${backSide.backsideUrl}`))
      .resize(result.width, result.height, { fit: 'fill', kernel: 'lanczos3' })
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer()
    expect(diffRatio(Buffer.from(result.pixels, 'base64'), expected, result.width, result.height)).toBeLessThanOrEqual(MAX_DIFF_RATIO)
  })

  // One load, looked at on a phone and then on a computer: the page lays its figures out again as it widens.
  test('the render check page draws all three shapes and is accessible', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 })
    await openRenderCheck(page)
    await expect(page.getByTestId('render-check-status')).toHaveText('Renderer: WebGL')
    await expect(page.getByRole('img', { name: /ornament pair drawn with checkerboard photos$/ })).toHaveCount(3)
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await expectNoSeriousAxeViolations(page)
      await page.screenshot({ path: test.info().outputPath(`render-check-${width}.png`), fullPage: true })
    }
  })
})
