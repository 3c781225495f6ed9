import { albumFilters, CURATED_PHOTOS_DEFAULT, CURATED_PHOTOS_MAX, MAX_FILE_NAME_LENGTH, photoSizeWords } from '../catalogue/photo-constants'
import { z } from './zod'

export * from '../catalogue/photo-constants'

export const photoSizeWordSchema = z.enum(photoSizeWords)
export const albumFilterSchema = z.enum(albumFilters)

/**
 * Where the photo's subject is, as fractions 0–1 of its upright width (x) and height (y): found once when
 * the photo was stored; null for photos stored before (place those centred). Decision 059.
 */
export const focalPointSchema = z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })
export type FocalPoint = z.infer<typeof focalPointSchema>

export const photoSchema = z.object({
  id: z.uuid(),
  familyId: z.uuid().nullable(),
  source: z.enum(['album', 'upload']),
  /** The smartphone rendition; swap the size word for another size. */
  url: z.string(),
  urls: z.object({ small: z.string(), smartphone: z.string() }),
  width: z.number().int(),
  height: z.number().int(),
  orientation: z.enum(['landscape', 'portrait', 'square']),
  favorite: z.boolean(),
  recommended: z.boolean(),
  capturedAt: z.iso.datetime(),
  /** capturedAt as a calendar date in the caller's timezone (the timezone header). */
  capturedOn: z.iso.date(),
  caption: z.string().nullable(),
  focalPoint: focalPointSchema.nullable(),
})
export type Photo = z.infer<typeof photoSchema>

export const familyAlbumSummarySchema = z.object({
  familyId: z.uuid(),
  name: z.string(),
  photoCount: z.number().int(),
  favoriteCount: z.number().int(),
  recommendedCount: z.number().int(),
  coverPhoto: photoSchema.nullable(),
  /** First and last capture dates in the caller's timezone; null for an empty album. */
  dateRange: z.object({ from: z.iso.date(), to: z.iso.date() }).nullable(),
})

export const albumSummarySchema = z.object({ families: z.array(familyAlbumSummarySchema) })
export type AlbumSummary = z.infer<typeof albumSummarySchema>

export const albumPhotosParamsSchema = z.object({ familyId: z.uuid({ error: 'familyId must be a family id (a UUID)' }) })
export const albumPhotosQuerySchema = z.object({
  filter: albumFilterSchema.default('all'),
  cursor: z.string().min(1).max(512).optional(),
})
export const albumPhotosPageSchema = z.object({
  familyId: z.uuid(),
  filter: albumFilterSchema,
  photos: z.array(photoSchema),
  /** Opaque; null on the last page. */
  nextCursor: z.string().nullable(),
})

const booleanQuery = z.enum(['true', 'false'], { error: 'Expected true or false' }).transform((v) => v === 'true')

export const curatedPhotosQuerySchema = z.object({
  landscapeOnly: booleanQuery.default(false),
  numOfPhotos: z.coerce
    .number({ error: 'numOfPhotos must be a whole number' })
    .int({ error: 'numOfPhotos must be a whole number' })
    .min(1, { error: `numOfPhotos must be between 1 and ${CURATED_PHOTOS_MAX}` })
    .max(CURATED_PHOTOS_MAX, { error: `numOfPhotos must be between 1 and ${CURATED_PHOTOS_MAX}` })
    .default(CURATED_PHOTOS_DEFAULT),
})
export const curatedProductPhotosQuerySchema = z.object({
  familyId: z.uuid({ error: 'familyId must be a family id (a UUID)' }).optional(),
})
export const photoListSchema = z.object({ photos: z.array(photoSchema) })

export const photoProxyQuerySchema = z.object({
  url: z.string({ error: 'Required' }).min(1).max(2048, { error: 'url must be at most 2048 characters' }),
  inputSize: photoSizeWordSchema.default('small'),
  outputSize: photoSizeWordSchema.default('smartphone'),
})

export const uploadLinkRequestSchema = z.object({
  fileName: z
    .string()
    .min(1, { error: 'fileName must not be empty' })
    .max(MAX_FILE_NAME_LENGTH, {
      error: `fileName must be at most ${MAX_FILE_NAME_LENGTH} characters`,
    }),
  fileType: z.string().min(1, { error: 'fileType must not be empty' }).max(100),
})
export const uploadLinkSchema = z.object({
  /** PUT the file here with its content type. */
  signedRequest: z.string(),
  /** Where the photo is served once uploaded (smartphone size). */
  url: z.string(),
})
export type UploadLink = z.infer<typeof uploadLinkSchema>
