/**
 * The preview is what gets printed (issue 50, item 1): a preview draws the front at display size (the mockup's width)
 * with the same renderer and design as the print file, from the photo's smartphone rendition where that still has a
 * pixel for each one shown, so the print file (drawn from the original) scaled down to display size is the preview's
 * picture. For every shape, with a personal line on each ornament and a halo, at most 0.1 % of pixels may differ
 * (pixelmatch, threshold 0.2, anti-aliased pixels counted too), as in the fidelity harness (tests/e2e/render.spec.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import pixelmatch from 'pixelmatch'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ornamentShapes, photoCells, pseudoTemplates, type OrnamentShape } from '../../app/catalogue/ornaments'
import type { PersonalText } from '../../app/catalogue/personal-line'
import { MOCKUP_WIDTH } from '../../app/compositor/mockup.server'
import { releaseFront, renderFrontWithCells } from '../../app/compositor/print.server'
import { displayRenditionOf, displayScaleOf } from '../../app/api/services/previews'
import { makeRenditions } from '../../app/api/media/images'
import { clampTransform } from '../../app/compositor/layout'

const MAX_DIFF_RATIO = 0.001
const scene = fs.readFileSync(path.resolve('tests/fixtures/render/scene.jpg'))
/** An album photo as the store keeps it: a 2000 px original and its renditions, made the way an upload makes them. */
const album = sharp(scene)
  .resize(2000, 1500, { fit: 'fill', kernel: 'lanczos3' })
  .jpeg({ quality: 92 })
  .toBuffer()
  .then((bytes) => makeRenditions(bytes, 'image/jpeg'))

/** A line on each ornament (the star has one), each typeface, one haloed on each shape. */
const lines: Record<OrnamentShape, PersonalText> = {
  tree: {
    left: { line: 'Ava · 2026', typeface: 'lora', colour: 'snow', halo: true },
    right: { line: "Baby's first Christmas", typeface: 'dancing-script', colour: 'gold' },
  },
  star: { right: { line: "Baby's first Christmas", typeface: 'dancing-script', colour: 'gold', halo: true } },
  stocking: {
    left: { line: 'The Lees — Noël 2026', typeface: 'montserrat', colour: 'cranberry', halo: true },
    right: { line: 'Ava · 2026', typeface: 'lora', colour: 'ink' },
  },
}

describe('the print file at display size is the preview', () => {
  for (const shape of ornamentShapes) {
    it(`${shape}, with a line and a halo`, async () => {
      const { files, width: photoWidth, height: photoHeight } = await album
      const template = pseudoTemplates[shape]
      const scale = displayScaleOf(template)
      const cells = photoCells(template).map((cell, i) => ({
        cell,
        transform: clampTransform(cell, { width: photoWidth, height: photoHeight }, { x: i * 10, y: -5, zoom: i ? 1.2 : 1, rotation: i ? 12 : 0 }),
      }))
      const renditions = cells.map(({ cell, transform }) => displayRenditionOf(cell, { width: photoWidth, height: photoHeight }, transform, scale))
      // The test covers the path the preview takes most: the smartphone rendition for the photo at its usual zoom.
      expect(renditions).toContain('smartphone')
      const photosFrom = (pick: (i: number) => Buffer) => Object.fromEntries(cells.map(({ cell, transform }, i) => [cell.id, { image: pick(i), transform }]))
      const print = await renderFrontWithCells({ template, photos: photosFrom(() => files.original), text: lines[shape] }, 1)
      const printed = { data: Buffer.from(print.image.data), width: print.image.width, height: print.image.height }
      releaseFront(print)
      const shown = await renderFrontWithCells({ template, photos: photosFrom((i) => files[renditions[i]!]), text: lines[shape] }, scale)
      const { width, height } = shown.image
      const preview = Buffer.from(shown.image.data)
      releaseFront(shown)
      expect(width).toBe(MOCKUP_WIDTH)
      const scaled = await sharp(printed.data, { raw: { width: printed.width, height: printed.height, channels: 4 } })
        .resize(width, height, { kernel: 'lanczos3', fit: 'fill' })
        .raw()
        .toBuffer()
      const differing = pixelmatch(scaled, preview, undefined, width, height, { threshold: 0.2, includeAA: true })
      console.log(`${shape}: ${((differing / (width * height)) * 100).toFixed(4)} % of pixels differ`)
      expect(differing / (width * height)).toBeLessThanOrEqual(MAX_DIFF_RATIO)
    })
  }
})
