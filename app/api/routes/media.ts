import { mediaApi } from '../../contract/endpoints/media'
import { Hono, type Context } from 'hono'
import { photoSizeWordSchema } from '../../contract/photos'
import { z } from '../../contract/zod'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { jpegResponse } from '../media/image-response'
import { photoKey } from '../media/urls'
import { findPhoto, listUploadedPhotos } from '../services/photo-library'
import { signingKey } from '../services/signing'
import { createUploadLink, ingestBucketUploads, receiveLocalUpload } from '../services/uploads'

export const mediaRoutes = new Hono<ApiEnv>()

async function uploadDeps(c: Context<ApiEnv>) {
  const { db, storage, media, config, now } = c.get('deps')
  return { db, storage, media, config, key: await signingKey(db, config), now: now() }
}

endpoint(mediaRoutes, mediaApi.photoFile, async ({ params }, c) => {
  const size = photoSizeWordSchema.safeParse(params.file.replace(/\.jpg$/, ''))
  if (!params.file.endsWith('.jpg') || !size.success) throw new AppError('not_found', 'Photo not found')
  const { db, storage } = c.get('deps')
  const photo = await findPhoto(db, params.photoId)
  const etag = photo?.etags[size.data]
  if (!photo || !etag) throw new AppError('not_found', 'Photo not found')
  const immutable = 'public, max-age=31536000, immutable'
  if (c.req.header('if-none-match') === etag) return jpegResponse(null, etag, immutable)
  const object = await storage.get(photoKey(photo.id, size.data))
  if (!object) throw new AppError('not_found', 'Photo not found')
  return jpegResponse(object.body, etag, immutable)
})

endpoint(mediaRoutes, mediaApi.createUploadLink, async ({ user, body }, c) => createUploadLink(await uploadDeps(c), user.id, body.fileName, body.fileType))

endpoint(mediaRoutes, mediaApi.putUpload, async ({ params, query }, c) => {
  const deps = await uploadDeps(c)
  if (!z.uuid().safeParse(params.uploadId).success) throw new AppError('forbidden', 'This upload link is not valid')
  return receiveLocalUpload(deps, {
    uploadId: params.uploadId,
    expires: query.expires,
    signature: query.signature,
    contentType: c.req.header('content-type') ?? '',
    request: c.req.raw,
  })
})

endpoint(mediaRoutes, mediaApi.listUploads, async ({ user }, c) => {
  const deps = await uploadDeps(c)
  await ingestBucketUploads(deps, user.id)
  return listUploadedPhotos(deps.db, user.id, deps.media, c.get('timezone'))
})
