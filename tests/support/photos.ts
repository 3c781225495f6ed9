import { randomUUID } from 'node:crypto'
import sharp from 'sharp'
import { makeRenditions } from '../../app/api/media/images'
import { storePhoto } from '../../app/api/services/photo-library'
import type { TestApi } from './test-api'

/** A small real image of the given type and size. */
export function makeImage(format: 'jpeg' | 'png' | 'webp', width = 64, height = 48, hue = 30) {
  return sharp({ create: { width, height, channels: 3, background: { r: hue % 256, g: (hue * 3) % 256, b: (hue * 7) % 256 } } })
    .toFormat(format)
    .toBuffer()
}

export type SeededPhoto = {
  id: string
  capturedAt: Date
  favorite: boolean
  recommended: boolean
  width: number
  height: number
  /** As the API answers it (decision 059). */
  focalPoint: { x: number; y: number } | null
}

/** Adds n tiny photos to a family's album; every 4th a favourite, every 3rd recommended, every 5th portrait. */
export async function addAlbumPhotos(t: TestApi, familyId: string, n: number, start = new Date('2025-06-01T12:00:00Z'), size = { width: 64, height: 48 }) {
  const seeded: SeededPhoto[] = []
  const shapes = {
    landscape: await makeRenditions(await makeImage('jpeg', size.width, size.height), 'image/jpeg'),
    portrait: await makeRenditions(await makeImage('jpeg', size.height, size.width), 'image/jpeg'),
  }
  for (let i = 0; i < n; i++) {
    const portrait = i % 5 === 0
    // Some photos share a capture time, so the cursor must order by id as well.
    const capturedAt = new Date(start.getTime() - Math.floor(i / 2) * 3_600_000)
    const row = await storePhoto(
      t.db,
      t.storage,
      { id: randomUUID(), familyId, ownerUserId: null, source: 'album', favorite: i % 4 === 0, recommended: i % 3 === 0, capturedAt },
      portrait ? shapes.portrait : shapes.landscape,
    )
    const focalPoint = row.focalX === null || row.focalY === null ? null : { x: row.focalX, y: row.focalY }
    seeded.push({ id: row.id, capturedAt, favorite: row.favorite, recommended: row.recommended, width: row.width, height: row.height, focalPoint })
  }
  return seeded
}
