import { Hono, type Context } from 'hono'
import { photoListSchema, photoSizeWordSchema, uploadLinkRequestSchema, uploadLinkSchema } from '../../contract/photos'
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

endpoint(
  mediaRoutes,
  {
    method: 'get',
    path: '/media/photos/:photoId/:file',
    tag: 'media',
    summary: 'A photo rendition by its size word (small.jpg, smartphone.jpg); immutable, cached for a year',
    auth: 'none',
    params: z.object({ photoId: z.uuid({ error: 'Photo not found' }), file: z.string().max(32) }),
    headers: { 'if-none-match': 'ETag from an earlier answer' },
    response: z.any(),
  },
  async ({ params }, c) => {
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
  },
)

endpoint(
  mediaRoutes,
  {
    method: 'post',
    path: '/media/growth-product-photo',
    tag: 'media',
    summary: 'A signed, single-use link to upload one photo (JPEG, PNG, WebP, HEIC/HEIF); PUT the file to signedRequest',
    auth: 'user',
    body: uploadLinkRequestSchema,
    response: uploadLinkSchema,
  },
  async ({ user, body }, c) => createUploadLink(await uploadDeps(c), user.id, body.fileName, body.fileType),
)

endpoint(
  mediaRoutes,
  {
    method: 'put',
    path: '/media/uploads/:uploadId',
    tag: 'media',
    summary: 'The local signed upload URL: the file body with the content type it was signed for',
    auth: 'none',
    params: z.object({ uploadId: z.string().max(64) }),
    query: z.object({ expires: z.string().max(20).optional(), signature: z.string().max(128).optional() }),
    headers: { 'content-type': 'the signed content type' },
    response: z.object({ id: z.uuid(), url: z.string() }),
  },
  async ({ params, query }, c) => {
    const deps = await uploadDeps(c)
    if (!z.uuid().safeParse(params.uploadId).success) throw new AppError('forbidden', 'This upload link is not valid')
    return receiveLocalUpload(deps, {
      uploadId: params.uploadId,
      expires: query.expires,
      signature: query.signature,
      contentType: c.req.header('content-type') ?? '',
      request: c.req.raw,
    })
  },
)

endpoint(
  mediaRoutes,
  {
    method: 'get',
    path: '/media/uploads',
    tag: 'media',
    summary: "The caller's uploaded photos, newest first",
    auth: 'user',
    response: photoListSchema,
  },
  async ({ user }, c) => {
    const deps = await uploadDeps(c)
    await ingestBucketUploads(deps, user.id)
    return listUploadedPhotos(deps.db, user.id, deps.media, c.get('timezone'))
  },
)
