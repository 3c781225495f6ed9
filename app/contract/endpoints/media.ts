import type { Endpoint } from '../endpoint'
import { photoListSchema, uploadLinkRequestSchema, uploadLinkSchema } from '../photos'
import { z } from '../zod'

export const mediaApi = {
  photoFile: {
    method: 'get',
    path: '/media/photos/:photoId/:file',
    tag: 'media',
    summary: 'A photo rendition by its size word (small.jpg, smartphone.jpg); immutable, cached for a year',
    auth: 'none',
    params: z.object({ photoId: z.uuid({ error: 'Photo not found' }), file: z.string().max(32) }),
    headers: { 'if-none-match': 'ETag from an earlier answer' },
    response: z.any(),
    produces: ['image/jpeg'],
    alsoAnswers: { 304: 'Not modified: the ETag sent is current' },
  },
  createUploadLink: {
    method: 'post',
    path: '/media/growth-product-photo',
    tag: 'media',
    summary: 'A signed, single-use link to upload one photo (JPEG, PNG, WebP, HEIC/HEIF); PUT the file to signedRequest',
    auth: 'user',
    body: uploadLinkRequestSchema,
    response: uploadLinkSchema,
  },
  putUpload: {
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
  listUploads: {
    method: 'get',
    path: '/media/uploads',
    tag: 'media',
    summary: "The caller's uploaded photos, newest first",
    auth: 'user',
    response: photoListSchema,
  },
} as const satisfies Record<string, Endpoint>
