/**
 * Designs saved to the account (issue 19, part 3): a signed-in shopper's unfinished ornament, one per
 * variant, kept by the API so it resumes on another device. The body names photos by id only; the
 * server answers each photo's URL and size from its own records, so a client never names a URL.
 * The bounds are the designer's local draft's (app/features/designer/draft.ts).
 */
import { MAX_ZOOM } from '../catalogue/ornaments'
import { personalTextSchema } from './personal-line'
import { focalPointSchema } from './photos'
import { z } from './zod'

/** The designer's bound: a real draft has two cells; anything past this is not ours. */
export const MAX_SAVED_DESIGN_CELLS = 8

const bounded = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .min(min, { error: `${name} must be between ${min} and ${max}` })
    .max(max, { error: `${name} must be between ${min} and ${max}` })

export const savedDesignTransformSchema = z.object({
  x: bounded('x', -1_000_000, 1_000_000),
  y: bounded('y', -1_000_000, 1_000_000),
  zoom: bounded('zoom', 1, MAX_ZOOM),
  rotation: bounded('rotation', -360, 360),
})

const cellIdSchema = z.string().min(1).max(64)
const fewCells = (record: object) => Object.keys(record).length <= MAX_SAVED_DESIGN_CELLS
const tooManyCells = { error: `At most ${MAX_SAVED_DESIGN_CELLS} cells` }

export const savedDesignVariantParamsSchema = z.object({
  variantId: z.coerce
    .number({ error: 'variantId must be a whole number' })
    .int({ error: 'variantId must be a whole number' })
    .positive({ error: 'variantId must be a whole number' })
    .max(2 ** 31 - 1, { error: 'variantId must be a whole number' }),
})

export const savedDesignParamsSchema = z.object({ id: z.uuid({ error: 'Design id must be a UUID' }) })

/**
 * What a client saves. Later fields (an optional `text` line) are added as optional keys here and in
 * the stored body; a body saved before they existed stays valid. Unknown keys are dropped.
 */
export const saveDesignRequestSchema = z.object({
  /** Photo id per cell id. */
  photos: z.record(cellIdSchema, z.uuid({ error: 'photoId must be a photo id (a UUID)' })).refine(fewCells, tooManyCells),
  /** The last committed transform per cell. */
  transforms: z.record(cellIdSchema, savedDesignTransformSchema).refine(fewCells, tooManyCells),
  backSideId: z.string().min(1).max(64).nullable(),
  /** The personal line (issue 19, part 1), checked like the preview's; absent or null: none. */
  text: personalTextSchema.nullable().optional(),
  /**
   * When the shopper last changed it on their device (ISO time); the later of two copies wins when a
   * device's draft meets the account's at sign-in. Absent: now. Never later than the server's now.
   */
  editedAt: z.iso.datetime({ offset: true, error: 'editedAt must be an ISO date-time' }).optional(),
})
export type SaveDesignRequest = z.infer<typeof saveDesignRequestSchema>

export const savedDesignPhotoSchema = z.object({
  id: z.uuid(),
  /** The smartphone rendition (what the live preview draws). */
  url: z.string(),
  /** The small rendition, for thumbnails. */
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** Where the photo's subject is (fractions of width and height), or null: see photoSchema. */
  focalPoint: focalPointSchema.nullable(),
})

export const savedDesignSchema = z.object({
  id: z.uuid(),
  variantId: z.number().int(),
  /** The catalogue's shape name, e.g. "Star". */
  shapeName: z.string(),
  /** Photos per cell, as the server knows them; a photo the shopper can no longer see is left out. */
  photos: z.record(z.string(), savedDesignPhotoSchema),
  transforms: z.record(z.string(), savedDesignTransformSchema),
  backSideId: z.string().nullable(),
  /** Each ornament's personal line, or null; absent in answers from before it. */
  text: personalTextSchema.nullable().optional(),
  createdAt: z.string(),
  /** When the shopper last changed it (editedAt as saved). */
  updatedAt: z.string(),
})
export type SavedDesign = z.infer<typeof savedDesignSchema>

export const savedDesignsSchema = z.object({ designs: z.array(savedDesignSchema) })
export type SavedDesigns = z.infer<typeof savedDesignsSchema>
