import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { and, count, eq, sql } from 'drizzle-orm'
import type { Database } from '../db/client'
import { photos } from '../db/schema'
import { focalPointOf, makeRenditions, renditionNames, etagOf, type FocalPoint, type Renditions } from '../media/images'
import type { ObjectStorage } from '../storage/storage'
import { demoAccounts } from './accounts'
import { ensureDemoPhotoLibrary } from './photo-scenes'
import { storePhoto } from '../services/photo-library'

/** Each demo family's album: 64 of the 72 generated photos, offset so the two albums differ. */
export const DEMO_LIBRARY_SIZE = 72
export const DEMO_PHOTOS_PER_FAMILY = 64
const RENDITIONS_VERSION = 'r1'

/** A stable UUID (v4 layout) from a name, so seeding twice finds the same photos. */
export function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

type CachedFacts = { width: number; height: number; focalPoint?: FocalPoint | null }

async function writeFacts(base: string, facts: Required<CachedFacts>) {
  const temp = `${base}.json.${process.pid}.tmp`
  await fs.writeFile(temp, JSON.stringify(facts))
  await fs.rename(temp, `${base}.json`)
}

/**
 * Renditions of a generated photo, made once and kept in the cache folder beside it, with their size and
 * focal point; a cache from before focal points (decision 059) gets its focal point from the cached small
 * rendition, once.
 */
async function cachedRenditions(file: string): Promise<Renditions> {
  const base = `${file.replace(/\.jpg$/, '')}.${RENDITIONS_VERSION}`
  try {
    const facts = JSON.parse(await fs.readFile(`${base}.json`, 'utf8')) as CachedFacts
    const buffers = await Promise.all(renditionNames.map((name) => fs.readFile(`${base}.${name}.jpg`)))
    const files = Object.fromEntries(renditionNames.map((name, i) => [name, buffers[i]!])) as Renditions['files']
    const etags = Object.fromEntries(renditionNames.map((name) => [name, etagOf(files[name])])) as Renditions['etags']
    let focalPoint = facts.focalPoint
    if (focalPoint === undefined) {
      focalPoint = await focalPointOf(files.small)
      await writeFacts(base, { width: facts.width, height: facts.height, focalPoint })
    }
    return { width: facts.width, height: facts.height, files, etags, focalPoint }
  } catch {
    const renditions = await makeRenditions(await fs.readFile(file), 'image/jpeg')
    for (const name of renditionNames) {
      const temp = `${base}.${name}.${process.pid}.tmp`
      await fs.writeFile(temp, renditions.files[name])
      await fs.rename(temp, `${base}.${name}.jpg`)
    }
    await writeFacts(base, { width: renditions.width, height: renditions.height, focalPoint: renditions.focalPoint })
    return renditions
  }
}

/** Renders the demo library and its renditions into the cache, so later starts only copy files. */
export async function warmDemoPhotoCache(cacheDir: string) {
  const library = await ensureDemoPhotoLibrary(path.join(cacheDir, 'library'), DEMO_LIBRARY_SIZE)
  for (const { file } of library) await cachedRenditions(file)
  return library.length
}

/** Demo mode: every demo family gets a full album, once (DEMO_MODE; scripts/seed-demo.ts). */
export async function seedDemoAlbums(db: Database, storage: ObjectStorage, cacheDir: string) {
  const library = await ensureDemoPhotoLibrary(path.join(cacheDir, 'library'), DEMO_LIBRARY_SIZE)
  for (const [familyIndex, { family }] of demoAccounts.entries()) {
    const [existing] = await db
      .select({ n: count(), withoutFocalPoint: count(sql`case when ${photos.focalX} is null then 1 end`) })
      .from(photos)
      .where(and(eq(photos.familyId, family.id), eq(photos.source, 'album')))
    // A full album is left alone, unless it was seeded before focal points (decision 059).
    if ((existing?.n ?? 0) >= DEMO_PHOTOS_PER_FAMILY && existing?.withoutFocalPoint === 0) continue
    const offset = familyIndex * (DEMO_LIBRARY_SIZE - DEMO_PHOTOS_PER_FAMILY)
    await addLibraryPhotos(db, storage, family.id, library.slice(offset, offset + DEMO_PHOTOS_PER_FAMILY))
  }
}

type LibraryPhoto = Awaited<ReturnType<typeof ensureDemoPhotoLibrary>>[number]

async function addLibraryPhotos(db: Database, storage: ObjectStorage, familyId: string, library: LibraryPhoto[]) {
  for (const { spec, file } of library) {
    const id = stableUuid(`${familyId}/demo-photo/${spec.index}`)
    const [already] = await db.select({ id: photos.id, focalX: photos.focalX }).from(photos).where(eq(photos.id, id))
    if (already) {
      // Seeded before focal points (decision 059): the cache has it now, so the demo shows smart placement.
      const { focalPoint } = already.focalX === null ? await cachedRenditions(file) : { focalPoint: null }
      if (focalPoint) await db.update(photos).set({ focalX: focalPoint.x, focalY: focalPoint.y }).where(eq(photos.id, id))
      continue
    }
    await storePhoto(
      db,
      storage,
      {
        id,
        familyId,
        ownerUserId: null,
        source: 'album',
        favorite: spec.favorite,
        recommended: spec.recommended,
        caption: spec.title,
        capturedAt: spec.capturedAt,
      },
      await cachedRenditions(file),
    )
  }
}

/** Fills one family's album with `howMany` generated photos (scripts/create-account.ts, for a test account). */
export async function addGeneratedAlbumPhotos(db: Database, storage: ObjectStorage, cacheDir: string, familyId: string, howMany: number) {
  const library = await ensureDemoPhotoLibrary(path.join(cacheDir, 'library'), DEMO_LIBRARY_SIZE)
  await addLibraryPhotos(db, storage, familyId, library.slice(0, Math.min(howMany, library.length)))
}
