import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { clampTransform, invertMatrix, photoMatrix, scaleMatrix, type PhotoTransform } from '../../app/compositor/layout'
import { decodeShrink, renderFront, renderFrontGeneral, renderPhotoCell } from '../../app/compositor/print.server'
import { photoCells, pseudoTemplates, type TemplateCell } from '../../app/catalogue/ornaments'

/** A checkerboard with a colour ramp, so a misplacement by a pixel shows. */
function checker(width: number, height: number, square: number) {
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const on = (Math.floor(x / square) + Math.floor(y / square)) % 2 === 0
      const i = (y * width + x) * 4
      data[i] = on ? 230 : 20
      data[i + 1] = Math.round((x / width) * 255)
      data[i + 2] = Math.round((y / height) * 255)
      data[i + 3] = 255
    }
  }
  return { data, width, height }
}

/** What a GPU does: bilinear sampling at pixel centres, clamped at the texture's edges. */
function referencePixel(img: { data: Buffer; width: number; height: number }, u: number, v: number, channel: number) {
  const x0 = Math.floor(u)
  const y0 = Math.floor(v)
  const fx = u - x0
  const fy = v - y0
  const at = (x: number, y: number) => {
    const cx = Math.min(img.width - 1, Math.max(0, x))
    const cy = Math.min(img.height - 1, Math.max(0, y))
    return img.data[(cy * img.width + cx) * 4 + channel]!
  }
  return (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy
}

const cell: TemplateCell = {
  id: 'test-cell',
  templateVariantId: 1,
  type: 'Image',
  imageData: null,
  patternData: null,
  absoluteCenterX: 667.5,
  absoluteCenterY: 922,
  width: 1149,
  height: 1700,
  positionRelativeToTemplate: 'Beneath',
  order: 0,
  zIndex: 1,
}

describe('print placement matches GPU-style bilinear sampling', () => {
  const photo = checker(96, 72, 8)
  const cases: [string, PhotoTransform, number][] = [
    ['cover, no turn', { x: 0, y: 0, zoom: 1, rotation: 0 }, 0.25],
    ['zoomed and moved', { x: 40, y: -90, zoom: 1.7, rotation: 0 }, 0.25],
    ['turned 17°', { x: 10, y: 20, zoom: 1.2, rotation: 17 }, 0.25],
    ['turned -90° at half scale', { x: 0, y: 0, zoom: 1, rotation: -90 }, 0.5],
    ['turned 133°, zoomed', { x: -30, y: 60, zoom: 2.4, rotation: 133 }, 0.2],
    ['upside down', { x: 0, y: 12, zoom: 1.1, rotation: 180 }, 0.5],
    ['turned 90° at print scale', { x: 5, y: 0, zoom: 1.3, rotation: 90 }, 1],
    ['turned -45°, far off-centre', { x: 300, y: 300, zoom: 3, rotation: -45 }, 0.3],
  ]
  for (const [name, transform, scale] of cases) {
    it(name, async () => {
      const png = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
        .png()
        .toBuffer()
      const { rect, image } = await renderPhotoCell(cell, { image: png, transform }, scale)
      const t = clampTransform(cell, photo, transform)
      const inverse = invertMatrix(scaleMatrix(photoMatrix(cell, photo, t), scale))
      let worst = 0
      let transparent = 0
      for (let y = 0; y < rect.height; y++) {
        for (let x = 0; x < rect.width; x++) {
          const X = rect.left + x + 0.5
          const Y = rect.top + y + 0.5
          const u = inverse.a * X + inverse.c * Y + inverse.tx - 0.5
          const v = inverse.b * X + inverse.d * Y + inverse.ty - 0.5
          const i = (y * rect.width + x) * 4
          if (image.data[i + 3]! < 255) transparent++
          // Skip the outermost half-pixel of the photo, where clamping and edge handling may differ.
          if (u < 0 || v < 0 || u > photo.width - 1 || v > photo.height - 1) continue
          for (let ch = 0; ch < 3; ch++) worst = Math.max(worst, Math.abs(image.data[i + ch]! - referencePixel(photo, u, v, ch)))
        }
      }
      expect(worst).toBeLessThanOrEqual(3)
      // The photo covers its cell: no transparent pixel inside the cell, except along its very edge.
      expect(transparent).toBeLessThanOrEqual(2 * (rect.width + rect.height))
    })
  }
})

describe('the cached underlay path draws what compositing every layer draws', () => {
  it.each(['tree', 'star', 'stocking'] as const)('%s', async (shape) => {
    const template = pseudoTemplates[shape]
    const png = await sharp(checker(160, 120, 7).data, { raw: { width: 160, height: 120, channels: 4 } })
      .png()
      .toBuffer()
    const [left, right] = photoCells(template)
    const design = {
      template,
      photos: {
        [left!.id]: { image: png, transform: { x: 20, y: 0, zoom: 1.3, rotation: 21 } },
        [right!.id]: { image: png, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
      },
    }
    const fast = await renderFront(design, 0.3)
    const general = (await renderFrontGeneral(design, 0.3)).image
    expect([fast.width, fast.height]).toEqual([general.width, general.height])
    let worst = 0
    for (let i = 0; i < fast.data.length; i++) worst = Math.max(worst, Math.abs(fast.data[i]! - general.data[i]!))
    expect(worst).toBeLessThanOrEqual(2)
  })
})

describe('each cell is masked and framed in place (decision 047)', () => {
  // Half the photo see-through: the clear interior blends it over the patterns instead of copying it,
  // and the silhouette's edge and the frame blend as sharp's composite does.
  it.each(['tree', 'star', 'stocking'] as const)('a see-through photo on %s draws what compositing every layer draws', async (shape) => {
    const template = pseudoTemplates[shape]
    const photo = checker(160, 120, 7)
    for (let i = 3; i < photo.data.length; i += 4) if (Math.floor(i / 4 / 160) % 20 < 10) photo.data[i] = 96
    const png = await sharp(photo.data, { raw: { width: 160, height: 120, channels: 4 } })
      .png()
      .toBuffer()
    const [left, right] = photoCells(template)
    const design = {
      template,
      photos: {
        [left!.id]: { image: png, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } },
        [right!.id]: { image: png, transform: { x: -10, y: 15, zoom: 1.7, rotation: -33 } },
      },
    }
    const fast = await renderFront(design, 0.25)
    const general = (await renderFrontGeneral(design, 0.25)).image
    let worst = 0
    let seeThrough = 0
    for (let i = 0; i < fast.data.length; i += 4) {
      for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(fast.data[i + c]! - general.data[i + c]!))
      if (general.data[i + 3]! > 0 && general.data[i + 3]! < 255) seeThrough++
    }
    expect(seeThrough).toBeGreaterThan(1000)
    expect(worst).toBeLessThanOrEqual(2)
  })
})

describe('a large JPEG is decoded already reduced, and lands where the full decode would', () => {
  it('reduces only JPEGs shown below half size whose size divides, leaving the placement a scale of ½ to 1', () => {
    expect(decodeShrink('jpeg', { width: 4096, height: 3072 }, 0.3)).toBe(2)
    expect(decodeShrink('jpeg', { width: 4096, height: 3072 }, 0.2)).toBe(4)
    expect(decodeShrink('jpeg', { width: 4096, height: 3072 }, 0.05)).toBe(8)
    expect(decodeShrink('jpeg', { width: 4096, height: 3072 }, 0.5)).toBe(1)
    expect(decodeShrink('png', { width: 4096, height: 3072 }, 0.3)).toBe(1)
    expect(decodeShrink('jpeg', { width: 4095, height: 3072 }, 0.3)).toBe(1)
    expect(decodeShrink('jpeg', { width: 4098, height: 3072 }, 0.2)).toBe(2)
  })

  // A smooth picture with large squares: JPEG at quality 100 keeps it, so JPEG and PNG differ only in how they are reduced.
  const photo = checker(1600, 1200, 96)
  const encoded = Promise.all([
    sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .removeAlpha()
      .jpeg({ quality: 100, chromaSubsampling: '4:4:4' })
      .toBuffer(),
    sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .png()
      .toBuffer(),
  ])
  // The mean difference allowed: the filters differ (a box in the IDCT, lanczos for the PNG), most where
  // the cell is smallest. Measured 0.57, 1.19 and 1.91; with the photo one reduced pixel off, 2.4, 4.9 and 15.
  const cases: [string, PhotoTransform, number, number][] = [
    ['cover, halved while decoding', { x: 0, y: 0, zoom: 1, rotation: 0 }, 0.25, 1.2],
    ['turned 23° and moved, quartered', { x: 60, y: -40, zoom: 1.3, rotation: 23 }, 0.1, 2.4],
    ['turned 90°, an eighth', { x: 0, y: 0, zoom: 1, rotation: 90 }, 0.05, 3],
  ]
  for (const [name, transform, scale, meanBound] of cases) {
    it(name, async () => {
      const [jpeg, png] = await encoded
      const [fromJpeg, fromPng] = await Promise.all([
        renderPhotoCell(cell, { image: jpeg, transform }, scale),
        renderPhotoCell(cell, { image: png, transform }, scale),
      ])
      expect(fromJpeg.rect).toEqual(fromPng.rect)
      const { width, height } = fromJpeg.rect
      let sum = 0
      let far = 0
      let transparent = 0
      for (let i = 0; i < width * height * 4; i += 4) {
        if (fromJpeg.image.data[i + 3]! < 255) transparent++
        for (let ch = 0; ch < 3; ch++) {
          const d = Math.abs(fromJpeg.image.data[i + ch]! - fromPng.image.data[i + ch]!)
          sum += d
          if (d > 40) far++
        }
      }
      // The same picture in the same place: a photo one reduced pixel off puts 1.8–8.5 % of the values far out.
      expect(sum / (width * height * 3)).toBeLessThan(meanBound)
      expect(far).toBeLessThan(width * height * 3 * 0.002)
      expect(transparent).toBeLessThanOrEqual(2 * (width + height))
    })
  }
})
