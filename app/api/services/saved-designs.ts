/**
 * Designs saved to the account (issue 19, part 3): one unfinished design per shopper and variant.
 * Every photo a design names must be one the shopper can see (photosOfUser, the preview's rule);
 * an unknown design, another shopper's, or a photo they cannot see is not found, and nothing changes.
 */
import { and, desc, eq } from 'drizzle-orm'
import { findBackSide, findOrnamentVariant, photoCells, templateForVariant } from '../../catalogue/ornaments'
import type { SaveDesignRequest, SavedDesign } from '../../contract/saved-designs'
import type { Database } from '../db/client'
import { designDrafts, type SavedDesignBody } from '../db/schema'
import type { SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import type { MediaUrls } from '../media/urls'
import { focalPointOfRow } from './album'
import { photosOfUser } from './photo-library'

type DraftRow = typeof designDrafts.$inferSelect

/**
 * A stored design's photos as a page draws them (URLs from our media, sizes from our rows) with their
 * transforms, for the photos in `known`; one the viewer can no longer see drops out with its transform.
 */
export function placedPhotos(
  media: MediaUrls,
  body: Pick<SavedDesignBody, 'photos' | 'transforms'>,
  known: ReadonlyMap<string, { width: number; height: number; focalX: number | null; focalY: number | null }>,
) {
  const photos: SavedDesign['photos'] = {}
  const transforms: SavedDesign['transforms'] = {}
  for (const [cellId, photoId] of Object.entries(body.photos)) {
    const photo = known.get(photoId)
    if (!photo) continue
    photos[cellId] = {
      id: photoId,
      url: media.photoUrl(photoId, 'smartphone'),
      thumbnailUrl: media.photoUrl(photoId, 'small'),
      width: photo.width,
      height: photo.height,
      focalPoint: focalPointOfRow(photo),
    }
    const transform = body.transforms[cellId]
    if (transform) transforms[cellId] = transform
  }
  return { photos, transforms }
}

/** The rows as the shopper sees them: photos they can no longer see (left the family, deleted) drop out. */
async function toSavedDesigns(db: Database, media: MediaUrls, userId: string, rows: DraftRow[]): Promise<SavedDesign[]> {
  const ids = [...new Set(rows.flatMap((r) => Object.values(r.body.photos)))]
  const visible = ids.length > 0 ? await photosOfUser(db, userId, ids) : new Map()
  return rows.map((row) => {
    const { photos, transforms } = placedPhotos(media, row.body, visible)
    return {
      id: row.id,
      variantId: row.variantId,
      shapeName: findOrnamentVariant(row.variantId)?.name ?? 'Photo',
      photos,
      transforms,
      backSideId: row.body.backSideId,
      text: row.body.text ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }
  })
}

export async function listSavedDesigns(db: Database, media: MediaUrls, user: SessionUser) {
  const rows = await db.select().from(designDrafts).where(eq(designDrafts.userId, user.id)).orderBy(desc(designDrafts.updatedAt), desc(designDrafts.id))
  return { designs: await toSavedDesigns(db, media, user.id, rows) }
}

/** The shopper's own saved design row; another shopper's, or none, is not found. */
export async function ownSavedDesignRow(db: Database, user: SessionUser, id: string) {
  const [row] = await db
    .select()
    .from(designDrafts)
    .where(and(eq(designDrafts.id, id), eq(designDrafts.userId, user.id)))
  if (!row) throw notFound('Saved design')
  return row
}

export async function getSavedDesign(db: Database, media: MediaUrls, user: SessionUser, id: string) {
  const [design] = await toSavedDesigns(db, media, user.id, [await ownSavedDesignRow(db, user, id)])
  return design!
}

/** The body checked against the variant's template: its photo cells, its back sides, photos the shopper can see. */
async function checkedBody(db: Database, user: SessionUser, variantId: number, input: SaveDesignRequest): Promise<SavedDesignBody> {
  const template = templateForVariant(variantId)
  if (!template) throw notFound(`Product variant ${variantId}`)
  const cellIds = new Set(photoCells(template).map((c) => c.id))
  for (const cellId of [...Object.keys(input.photos), ...Object.keys(input.transforms)]) {
    if (!cellIds.has(cellId)) throw new AppError('validation_failed', `Cell ${cellId} is not a photo cell of ${template.id}`)
  }
  if (input.backSideId !== null && findBackSide(input.backSideId)?.template !== template.id) {
    throw new AppError('validation_failed', `Back side ${input.backSideId} is not one of this ornament's back sides`)
  }
  const photoIds = [...new Set(Object.values(input.photos))]
  const visible = photoIds.length > 0 ? await photosOfUser(db, user.id, photoIds) : new Map()
  for (const photoId of photoIds) if (!visible.has(photoId)) throw notFound(`Photo ${photoId}`)
  // A transform without its photo means nothing: it is not kept.
  const transforms = Object.fromEntries(Object.entries(input.transforms).filter(([cellId]) => input.photos[cellId]))
  return { photos: input.photos, transforms, backSideId: input.backSideId, text: input.text ?? null }
}

/** Saves the shopper's design of one variant, replacing the one saved before; nothing is written when the body is refused. */
export async function saveDesign(db: Database, media: MediaUrls, user: SessionUser, variantId: number, input: SaveDesignRequest, now: Date) {
  const body = await checkedBody(db, user, variantId, input)
  const edited = input.editedAt ? new Date(input.editedAt) : now
  const updatedAt = edited.getTime() > now.getTime() ? now : edited
  const [row] = await db
    .insert(designDrafts)
    .values({ userId: user.id, variantId, body, createdAt: now, updatedAt })
    .onConflictDoUpdate({ target: [designDrafts.userId, designDrafts.variantId], set: { body, updatedAt } })
    .returning()
  const [design] = await toSavedDesigns(db, media, user.id, [row!])
  return design!
}

export async function deleteSavedDesign(db: Database, media: MediaUrls, user: SessionUser, id: string) {
  const deleted = await db
    .delete(designDrafts)
    .where(and(eq(designDrafts.id, id), eq(designDrafts.userId, user.id)))
    .returning({ id: designDrafts.id })
  if (deleted.length === 0) throw notFound('Saved design')
  return listSavedDesigns(db, media, user)
}
