import { and, asc, count, desc, eq, inArray, max, min, or, sql, type SQL } from 'drizzle-orm'
import { ALBUM_PAGE_SIZE, type AlbumFilter, type AlbumSummary, type FocalPoint, type Photo } from '../../contract/photos'
import type { Database } from '../db/client'
import { families, familyMembers, photos } from '../db/schema'
import { AppError, notFound } from '../errors'
import type { MediaUrls } from '../media/urls'
import { orientationOf } from '../media/images'
import { sign, verify } from './signing'

type PhotoRow = typeof photos.$inferSelect

/** A calendar date (YYYY-MM-DD) in the caller's timezone. */
export function dateIn(timezone: string, date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date)
}

/** The stored focal point, or null for a photo stored before they were found (decision 059). */
export function focalPointOfRow(row: Pick<PhotoRow, 'focalX' | 'focalY'>): FocalPoint | null {
  return row.focalX === null || row.focalY === null ? null : { x: row.focalX, y: row.focalY }
}

export function toPhoto(row: PhotoRow, media: MediaUrls, timezone: string): Photo {
  const small = media.photoUrl(row.id, 'small')
  const smartphone = media.photoUrl(row.id, 'smartphone')
  return {
    id: row.id,
    familyId: row.familyId,
    source: row.source,
    url: smartphone,
    urls: { small, smartphone },
    width: row.width,
    height: row.height,
    orientation: orientationOf(row.width, row.height),
    favorite: row.favorite,
    recommended: row.recommended,
    capturedAt: row.capturedAt.toISOString(),
    capturedOn: dateIn(timezone, row.capturedAt),
    caption: row.caption,
    focalPoint: focalPointOfRow(row),
  }
}

export async function familiesOf(db: Database, userId: string) {
  return db
    .select({ id: families.id, name: families.name })
    .from(familyMembers)
    .innerJoin(families, eq(families.id, familyMembers.familyId))
    .where(eq(familyMembers.userId, userId))
    .orderBy(asc(families.createdAt), asc(families.id))
}

/** Another family's album is not found, never forbidden: its existence is not the caller's business. */
export async function assertMember(db: Database, userId: string, familyId: string) {
  const [row] = await db
    .select({ familyId: familyMembers.familyId })
    .from(familyMembers)
    .where(and(eq(familyMembers.userId, userId), eq(familyMembers.familyId, familyId)))
  if (!row) throw notFound('Family')
}

const filterCondition = (filter: AlbumFilter): SQL | undefined =>
  filter === 'favorite' ? eq(photos.favorite, true) : filter === 'recommended' ? eq(photos.recommended, true) : undefined

/** GET /v1/{product}-photos: each of the caller's families with counts, a cover and the date range. */
export async function albumSummary(db: Database, userId: string, media: MediaUrls, timezone: string): Promise<AlbumSummary> {
  const mine = await familiesOf(db, userId)
  if (mine.length === 0) return { families: [] }
  const ids = mine.map((f) => f.id)
  const stats = await db
    .select({
      familyId: photos.familyId,
      photoCount: count(),
      favoriteCount: sql<number>`count(*) filter (where ${photos.favorite})`.mapWith(Number),
      recommendedCount: sql<number>`count(*) filter (where ${photos.recommended})`.mapWith(Number),
      from: min(photos.capturedAt),
      to: max(photos.capturedAt),
    })
    .from(photos)
    .where(inArray(photos.familyId, ids))
    .groupBy(photos.familyId)
  const covers = await db
    .selectDistinctOn([photos.familyId])
    .from(photos)
    .where(inArray(photos.familyId, ids))
    .orderBy(photos.familyId, desc(photos.favorite), desc(photos.capturedAt), desc(photos.id))
  return {
    families: mine.map((family) => {
      const s = stats.find((row) => row.familyId === family.id)
      const cover = covers.find((row) => row.familyId === family.id)
      return {
        familyId: family.id,
        name: family.name,
        photoCount: s?.photoCount ?? 0,
        favoriteCount: s?.favoriteCount ?? 0,
        recommendedCount: s?.recommendedCount ?? 0,
        coverPhoto: cover ? toPhoto(cover, media, timezone) : null,
        dateRange: s?.from && s.to ? { from: dateIn(timezone, new Date(s.from)), to: dateIn(timezone, new Date(s.to)) } : null,
      }
    }),
  }
}

type CursorPosition = { capturedAt: Date; id: string }

/** Cursors are opaque and signed: the position of the last photo shown, bound to one family and filter. */
export function encodeCursor(key: Buffer, familyId: string, filter: AlbumFilter, at: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify([familyId, filter, at.capturedAt.getTime(), at.id])).toString('base64url')
  return `${payload}.${sign(key, `album-cursor:${payload}`)}`
}

export function decodeCursor(key: Buffer, familyId: string, filter: AlbumFilter, cursor: string): CursorPosition {
  const invalid = new AppError('validation_failed', 'This cursor is not valid for this album; start again without one')
  const [payload, signature, ...rest] = cursor.split('.')
  if (!payload || !signature || rest.length || !verify(key, `album-cursor:${payload}`, signature)) throw invalid
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    throw invalid
  }
  if (!Array.isArray(parsed) || parsed[0] !== familyId || parsed[1] !== filter || typeof parsed[2] !== 'number' || typeof parsed[3] !== 'string') throw invalid
  return { capturedAt: new Date(parsed[2]), id: parsed[3] }
}

/**
 * GET /v1/{product}-photos/{familyId}: newest first, by (capturedAt, id) keyset, so a walk over the
 * pages sees every photo that existed when it started exactly once, however many arrive meanwhile.
 */
export async function albumPage(
  db: Database,
  opts: { userId: string; familyId: string; filter: AlbumFilter; cursor?: string; key: Buffer; media: MediaUrls; timezone: string },
) {
  await assertMember(db, opts.userId, opts.familyId)
  const after = opts.cursor ? decodeCursor(opts.key, opts.familyId, opts.filter, opts.cursor) : null
  const rows = await db
    .select()
    .from(photos)
    .where(
      and(
        eq(photos.familyId, opts.familyId),
        filterCondition(opts.filter),
        after ? sql`(${photos.capturedAt}, ${photos.id}) < (${after.capturedAt.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(photos.capturedAt), desc(photos.id))
    .limit(ALBUM_PAGE_SIZE + 1)
  const page = rows.slice(0, ALBUM_PAGE_SIZE)
  const last = page.at(-1)
  return {
    familyId: opts.familyId,
    filter: opts.filter,
    photos: page.map((row) => toPhoto(row, opts.media, opts.timezone)),
    nextCursor: rows.length > ALBUM_PAGE_SIZE && last ? encodeCursor(opts.key, opts.familyId, opts.filter, last) : null,
  }
}

/** The best photos for products: favourites, then recommended, then the newest. */
const bestFirst = [desc(photos.favorite), desc(photos.recommended), desc(photos.capturedAt), desc(photos.id)]

/** GET /v1/growth/{product}-curated-photos. */
export async function curatedPhotos(db: Database, opts: { userId: string; landscapeOnly: boolean; numOfPhotos: number; media: MediaUrls; timezone: string }) {
  const ids = (await familiesOf(db, opts.userId)).map((f) => f.id)
  if (ids.length === 0) return { photos: [] }
  const rows = await db
    .select()
    .from(photos)
    .where(
      and(
        inArray(photos.familyId, ids),
        or(eq(photos.favorite, true), eq(photos.recommended, true)),
        opts.landscapeOnly ? sql`${photos.width} > ${photos.height} * 1.05` : undefined,
      ),
    )
    .orderBy(...bestFirst)
    .limit(opts.numOfPhotos)
  return { photos: rows.map((row) => toPhoto(row, opts.media, opts.timezone)) }
}

export const CURATED_PRODUCT_PHOTOS = 24

/**
 * GET /v1/{product}-curated-photo-products-photos: picks for the product pages. Ornament cells are
 * portrait, so portrait and square favourites come before landscape ones.
 */
export async function curatedProductPhotos(db: Database, opts: { userId: string; familyId?: string; media: MediaUrls; timezone: string }) {
  if (opts.familyId) await assertMember(db, opts.userId, opts.familyId)
  const ids = opts.familyId ? [opts.familyId] : (await familiesOf(db, opts.userId)).map((f) => f.id)
  if (ids.length === 0) return { photos: [] }
  const rows = await db
    .select()
    .from(photos)
    .where(and(inArray(photos.familyId, ids), or(eq(photos.favorite, true), eq(photos.recommended, true))))
    .orderBy(sql`(${photos.height} * 1.05 >= ${photos.width}) desc`, ...bestFirst)
    .limit(CURATED_PRODUCT_PHOTOS)
  return { photos: rows.map((row) => toPhoto(row, opts.media, opts.timezone)) }
}
