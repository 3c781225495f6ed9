import { randomUUID } from 'node:crypto'
import { and, desc, eq, lt, or } from 'drizzle-orm'
import type { AppConfig } from '../../../app.config'
import { MAX_UPLOAD_BYTES, UPLOAD_URL_TTL_MS, uploadContentTypes, type UploadContentType, type UploadLink } from '../../contract/photos'
import type { Database } from '../db/client'
import { uploads } from '../db/schema'
import { readBodyCapped } from '../endpoint'
import { AppError } from '../errors'
import { crashPoint } from '../crash-points'
import { ImageRejected, makeRenditions, renditionNames, sniffImageType } from '../media/images'
import { photoKey, type MediaUrls } from '../media/urls'
import { ObjectTooLarge, type ObjectStorage } from '../storage/storage'
import { insertPhotoRow, writeRenditions } from './photo-library'
import { sign, verify } from './signing'

type UploadDeps = { db: Database; storage: ObjectStorage; media: MediaUrls; config: AppConfig; key: Buffer; now: Date }

const typeNames: Record<UploadContentType, string> = {
  'image/jpeg': 'JPEG',
  'image/png': 'PNG',
  'image/webp': 'WebP',
  'image/heic': 'HEIC',
  'image/heif': 'HEIF',
}

export function uploadContentType(raw: string): UploadContentType {
  const type = raw.split(';')[0]!.trim().toLowerCase()
  if (!(uploadContentTypes as readonly string[]).includes(type)) {
    throw new AppError('unsupported_media_type', `Upload a JPEG, PNG, WebP or HEIC photo (got ${JSON.stringify(raw.slice(0, 60))})`)
  }
  return type as UploadContentType
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * SPEC.md §9: a millisecond timestamp plus the file name with whitespace replaced by underscores.
 * Anything that could leave the upload's folder (separators, "..", control characters) is refused.
 */
export function storedFileName(fileName: string, now: Date): string {
  const refuse = (why: string) => new AppError('validation_failed', `fileName ${why}`)
  // Whitespace (tabs and newlines too) becomes underscores first; any other control character is refused.
  const name = fileName.replace(/\s/g, '_')
  if (CONTROL.test(name)) throw refuse('must not contain control characters')
  if (/[/\\]/.test(name)) throw refuse('must be a file name, not a path')
  if (name.includes('..')) throw refuse('must not contain ".."')
  if (name === '' || name === '.') throw refuse('must name a file')
  if (Buffer.byteLength(name) > 200) throw refuse('is too long (at most 200 bytes)')
  return `${now.getTime()}-${name}`
}

const signedPayload = (uploadId: string, contentType: string, expires: number) => `upload:${uploadId}:${contentType}:${expires}`

/** POST /v1/media/growth-product-photo: a single-use, expiring link to PUT one photo to. */
export async function createUploadLink(deps: UploadDeps, userId: string, fileName: string, fileType: string): Promise<UploadLink> {
  const contentType = uploadContentType(fileType)
  const storedName = storedFileName(fileName, deps.now)
  const id = randomUUID()
  const objectKey = `uploads/${id}/${storedName}`
  const expiresAt = new Date(deps.now.getTime() + UPLOAD_URL_TTL_MS)
  let signedRequest: string
  if (deps.storage.presignPut) {
    signedRequest = await deps.storage.presignPut(objectKey, contentType, UPLOAD_URL_TTL_MS / 1000)
  } else {
    const expires = expiresAt.getTime()
    // Root-relative like every media URL of ours, so the browser PUTs to the host it is on (issue 15, bug 6).
    const query = new URLSearchParams({ expires: String(expires), signature: sign(deps.key, signedPayload(id, contentType, expires)) })
    signedRequest = `/v1/media/uploads/${id}?${query}`
  }
  await deps.db.insert(uploads).values({ id, userId, storedName, objectKey, contentType, expiresAt, createdAt: deps.now })
  return { signedRequest, url: deps.media.photoUrl(id, 'smartphone') }
}

/** Bytes that are not the image type the link was signed for are refused (415), whatever their name says. */
async function renditionsOf(bytes: Buffer, contentType: UploadContentType) {
  const sniffed = sniffImageType(bytes)
  const family = (t: string) => (t === 'image/heif' ? 'image/heic' : t)
  if (!sniffed || family(sniffed) !== family(contentType)) {
    throw new AppError('unsupported_media_type', `The file is not a ${typeNames[contentType]} image`)
  }
  try {
    return await makeRenditions(bytes, sniffed)
  } catch (error) {
    if (error instanceof ImageRejected) throw new AppError('unsupported_media_type', error.message)
    throw error
  }
}

/**
 * An ingest that has not finished in this time is taken to have died with its process, and may be
 * claimed again (a 20 MB photo takes seconds). With the embedded database, which one process holds,
 * every unfinished ingest is a dead process's and is reclaimed at start-up (recoverInterruptedUploads).
 */
const STALE_INGEST_MS = 2 * 60 * 1000
const staleIngest = (upload: typeof uploads.$inferSelect, now: Date) =>
  upload.status === 'ingesting' && (!upload.ingestedAt || upload.ingestedAt.getTime() < now.getTime() - STALE_INGEST_MS)

/**
 * After a crash (issue 15, bug 11): uploads left `ingesting` by a dead process go back to pending —
 * absent, and retryable with the same link — with the renditions they had half-written removed, and
 * temporary files of interrupted writes are swept. `exclusive`: this process alone uses the database
 * (PGlite), so every unfinished ingest and every temporary file is a dead process's; otherwise only
 * those older than the stale time are.
 */
export async function recoverInterruptedUploads(deps: Pick<UploadDeps, 'db' | 'storage' | 'now'>, { exclusive }: { exclusive: boolean }) {
  const interrupted = await deps.db.select().from(uploads).where(eq(uploads.status, 'ingesting'))
  let reclaimed = 0
  for (const upload of interrupted) {
    if (!exclusive && !staleIngest(upload, deps.now)) continue
    await Promise.all(renditionNames.map((name) => deps.storage.delete(photoKey(upload.id, name))))
    const [back] = await deps.db
      .update(uploads)
      .set({ status: 'pending', ingestedAt: null })
      .where(and(eq(uploads.id, upload.id), eq(uploads.status, 'ingesting')))
      .returning({ id: uploads.id })
    if (back) reclaimed++
  }
  const swept = (await deps.storage.sweepTemporary?.(exclusive ? 0 : STALE_INGEST_MS)) ?? 0
  if (reclaimed || swept) console.warn(`Recovered after a crash: ${reclaimed} interrupted upload(s) back to pending, ${swept} temporary file(s) removed`)
  return { reclaimed, swept }
}

/**
 * Judges the bytes, claims the upload (pending → ingesting), writes the files, then records the photo
 * and the upload as ingested in one transaction; a failure puts the upload back to pending. False when
 * another request holds the claim. No transaction is held open while files are written.
 */
async function ingest(deps: UploadDeps, upload: typeof uploads.$inferSelect, bytes: Buffer, options: { rawStored: boolean }) {
  const renditions = await renditionsOf(bytes, upload.contentType as UploadContentType)
  const [claimed] = await deps.db
    .update(uploads)
    .set({ status: 'ingesting', ingestedAt: deps.now })
    .where(
      and(
        eq(uploads.id, upload.id),
        or(eq(uploads.status, 'pending'), and(eq(uploads.status, 'ingesting'), lt(uploads.ingestedAt, new Date(deps.now.getTime() - STALE_INGEST_MS)))),
      ),
    )
    .returning({ id: uploads.id })
  if (!claimed) return false
  try {
    await crashPoint('upload:claimed')
    if (!options.rawStored) await deps.storage.put(upload.objectKey, bytes, upload.contentType)
    await crashPoint('upload:after-original')
    await writeRenditions(deps.storage, upload.id, renditions)
    await crashPoint('upload:after-renditions')
    await deps.db.transaction(async (tx) => {
      const photo = { id: upload.id, familyId: null, ownerUserId: upload.userId, source: 'upload' as const, capturedAt: deps.now }
      await insertPhotoRow(tx as unknown as Database, photo, renditions)
      await tx.update(uploads).set({ status: 'ingested', photoId: upload.id, ingestedAt: deps.now }).where(eq(uploads.id, upload.id))
    })
    return true
  } catch (error) {
    await deps.db.update(uploads).set({ status: 'pending', ingestedAt: null }).where(eq(uploads.id, upload.id))
    throw error
  }
}

const MAX_UPLOAD_MESSAGE = `Photos can be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`

/** PUT to a local signed upload URL: signature and expiry first, then type, size and bytes, then the single-use claim. */
export async function receiveLocalUpload(
  deps: UploadDeps,
  input: { uploadId: string; expires: string | undefined; signature: string | undefined; contentType: string; request: Request },
) {
  const expires = Number(input.expires)
  const refused = (why: string) => new AppError('forbidden', why)
  const answer = { id: input.uploadId, url: deps.media.photoUrl(input.uploadId, 'smartphone') }
  if (!input.signature || !Number.isSafeInteger(expires)) throw refused('This upload link is not valid')
  const [upload] = await deps.db.select().from(uploads).where(eq(uploads.id, input.uploadId))
  if (!upload || !verify(deps.key, signedPayload(input.uploadId, upload.contentType, expires), input.signature)) {
    throw refused('This upload link is not valid')
  }
  if (expires <= deps.now.getTime()) throw refused('This upload link has expired; ask for a new one')
  if (upload.status === 'rejected') throw refused('This upload link was already used')
  if (uploadContentType(input.contentType || 'none') !== upload.contentType) {
    throw new AppError('unsupported_media_type', `This link takes ${typeNames[upload.contentType as UploadContentType]} files only`)
  }
  const bytes = await readBodyCapped(input.request, MAX_UPLOAD_BYTES, MAX_UPLOAD_MESSAGE)
  if (bytes.length === 0) throw new AppError('validation_failed', 'The upload is empty')
  if (upload.status === 'ingested') return replay(deps, upload, bytes, answer)
  // An ingest that died with its process is claimed again below; a live one is still working.
  if (upload.status === 'ingesting' && !staleIngest(upload, deps.now))
    throw new AppError('conflict', 'This photo is still being processed; try again in a moment')
  if (!(await ingest(deps, upload, bytes, { rawStored: false }))) {
    throw new AppError('conflict', 'This photo is already being uploaded through this link')
  }
  return answer
}

/** A retry whose first answer was lost gets the same answer; other bytes on a spent link are refused. */
async function replay(deps: UploadDeps, upload: typeof uploads.$inferSelect, bytes: Buffer, answer: { id: string; url: string }) {
  const stored = await deps.storage.get(upload.objectKey, MAX_UPLOAD_BYTES)
  if (stored?.body.equals(bytes)) return answer
  throw new AppError('forbidden', 'This upload link was already used')
}

/** How many pending bucket uploads one listing looks at. */
const BUCKET_UPLOADS_PER_LISTING = 20

/** S3 uploads land in the bucket without us; they are ingested when the shopper next lists their uploads. */
export async function ingestBucketUploads(deps: UploadDeps, userId: string) {
  if (!deps.storage.presignPut) return
  const pending = await deps.db
    .select()
    .from(uploads)
    .where(and(eq(uploads.userId, userId), eq(uploads.status, 'pending')))
    .orderBy(desc(uploads.createdAt))
    .limit(BUCKET_UPLOADS_PER_LISTING)
  for (const upload of pending) {
    try {
      const object = await deps.storage.get(upload.objectKey, MAX_UPLOAD_BYTES)
      if (!object) continue
      await ingest(deps, upload, object.body, { rawStored: true })
    } catch (error) {
      // Storage being down says nothing about the file: it stays pending and is ingested once storage answers again.
      if ((!(error instanceof AppError) || error.code === 'unavailable') && !(error instanceof ObjectTooLarge)) throw error
      await deps.storage.delete(upload.objectKey)
      await deps.db.update(uploads).set({ status: 'rejected' }).where(eq(uploads.id, upload.id))
    }
  }
}
