import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm'
import { renditionNames, type Renditions } from '../media/images'
import { photoKey, type MediaUrls } from '../media/urls'
import type { Database } from '../db/client'
import { familyMembers, photos } from '../db/schema'
import type { ObjectStorage } from '../storage/storage'
import { toPhoto } from './album'

export type NewPhoto = {
  id: string
  familyId: string | null
  ownerUserId: string | null
  source: 'album' | 'upload'
  favorite?: boolean
  recommended?: boolean
  caption?: string | null
  capturedAt: Date
}

export function writeRenditions(storage: ObjectStorage, photoId: string, renditions: Renditions) {
  return Promise.all(renditionNames.map((name) => storage.put(photoKey(photoId, name), renditions.files[name], 'image/jpeg')))
}

export async function insertPhotoRow(db: Database, photo: NewPhoto, renditions: Renditions) {
  const [row] = await db
    .insert(photos)
    .values({
      ...photo,
      favorite: photo.favorite ?? false,
      recommended: photo.recommended ?? false,
      caption: photo.caption ?? null,
      width: renditions.width,
      height: renditions.height,
      etags: renditions.etags,
      focalX: renditions.focalPoint?.x ?? null,
      focalY: renditions.focalPoint?.y ?? null,
    })
    .returning()
  return row!
}

/** Stores every rendition, then the row: a photo row never points at files that are not there. */
export async function storePhoto(db: Database, storage: ObjectStorage, photo: NewPhoto, renditions: Renditions) {
  await writeRenditions(storage, photo.id, renditions)
  return insertPhotoRow(db, photo, renditions)
}

export async function findPhoto(db: Database, photoId: string) {
  const [row] = await db.select().from(photos).where(eq(photos.id, photoId))
  return row ?? null
}

export const UPLOADS_LISTED = 60

/** The shopper's own uploads, newest first. */
export async function listUploadedPhotos(db: Database, userId: string, media: MediaUrls, timezone: string) {
  const rows = await db
    .select()
    .from(photos)
    .where(and(eq(photos.ownerUserId, userId), eq(photos.source, 'upload')))
    .orderBy(desc(photos.createdAt), desc(photos.id))
    .limit(UPLOADS_LISTED)
  return { photos: rows.map((row) => toPhoto(row, media, timezone)) }
}

/**
 * The photos the user may see, print or save in a design: those in their families' albums and their own
 * uploads. Others are not found (the preview and saved designs refuse them with a 404).
 */
export async function photosOfUser(db: Database, userId: string, photoIds: string[]) {
  const rows = await db
    .select({ id: photos.id, width: photos.width, height: photos.height, etags: photos.etags, focalX: photos.focalX, focalY: photos.focalY })
    .from(photos)
    .leftJoin(familyMembers, and(eq(familyMembers.familyId, photos.familyId), eq(familyMembers.userId, userId)))
    .where(
      and(
        inArray(photos.id, photoIds),
        or(and(eq(photos.source, 'upload'), eq(photos.ownerUserId, userId), isNull(photos.familyId)), eq(familyMembers.userId, userId)),
      ),
    )
  return new Map(rows.map((r) => [r.id, r]))
}
