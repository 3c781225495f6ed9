/**
 * Writes the fixture photos of the render tests (tests/fixtures/render/): two checkerboards with
 * colour ramps (misplacement shows; smooth photos would hide it) and one generated photo scene.
 * Committed; run again only to change them: `npx tsx scripts/make-render-fixtures.ts`.
 */
import { writeFile } from 'node:fs/promises'
import sharp from 'sharp'
import { demoPhotoSpecs, renderDemoPhoto } from '../app/api/demo/photo-scenes'

async function checker(width: number, height: number, square: number, hue: number) {
  const data = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const on = (Math.floor(x / square) + Math.floor(y / square)) % 2 === 0
      const i = (y * width + x) * 3
      data[i] = on ? 200 : 30 + Math.round((x / width) * 90)
      data[i + 1] = on ? (hue + Math.round((y / height) * 120)) % 256 : 40
      data[i + 2] = on ? 60 : 150 + Math.round((y / height) * 100)
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}

const dir = new URL('../tests/fixtures/render/', import.meta.url)
await writeFile(new URL('checker-a.png', dir), await checker(400, 300, 5, 40))
await writeFile(new URL('checker-b.png', dir), await checker(300, 400, 4, 120))
const [spec] = demoPhotoSpecs(1)
const scene = await renderDemoPhoto({ ...spec!, width: 800, height: 600 })
await writeFile(new URL('scene.jpg', dir), await sharp(scene).resize(800, 600).jpeg({ quality: 88 }).toBuffer())
console.log('wrote tests/fixtures/render/{checker-a.png,checker-b.png,scene.jpg}')
