/**
 * Design templates, back sides, base-image hashes and preview generation (SPEC.md §3, §7).
 * The constants themselves live in app/catalogue/ornaments.ts; these schemas describe them on the wire.
 */
import { MAX_ZOOM } from '../catalogue/ornaments'
import { previewWidths } from '../catalogue/ornaments'
import { colourIds, type ColourId } from '../catalogue/personal-line'
import { personalTextSchema } from './personal-line'
import { z } from './zod'

export const printAreaPositions = ['front', 'back', 'left_leg', 'right_leg', 'front_1', 'front_2', 'front_3', 'front_4'] as const
export const printAreaPositionSchema = z.enum(printAreaPositions)

const variantIdQuery = z.coerce
  .number({ error: 'productVariantId must be a whole number' })
  .int({ error: 'productVariantId must be a whole number' })
  .positive({ error: 'productVariantId must be a whole number' })
  .max(2 ** 31 - 1, { error: 'productVariantId must be a whole number' })

export const designTemplatesQuerySchema = z.object({ productVariantId: variantIdQuery })

export const cellSchema = z.object({
  id: z.string(),
  templateVariantId: z.number().int(),
  type: z.enum(['Image', 'PatternImage', 'Text']),
  imageData: z.null(),
  patternData: z.object({ tileUrl: z.string(), tileWidth: z.number().int(), tileHeight: z.number().int() }).nullable(),
  absoluteCenterX: z.number(),
  absoluteCenterY: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  positionRelativeToTemplate: z.enum(['OnTop', 'Beneath']),
  order: z.number().int(),
  zIndex: z.number().int(),
  /** Image cells: where a photo's subject should sit, as fractions of the cell (smart placement, decision 059). */
  focus: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).optional(),
})

export const pseudoTemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  numberOfUserImages: z.number().int(),
  maskImageUrl: z.string(),
  templateImageUrl: z.string(),
  thumbnailUrl: z.string(),
  productVariantIds: z.array(z.number().int()),
  width: z.number().int(),
  height: z.number().int(),
  cells: z.array(cellSchema),
})

export const backSideOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  template: z.string(),
  backsideId: z.number().int(),
  backsideUrl: z.string(),
  thumbnailUrl: z.string(),
  templateWidth: z.number().int(),
  templateHeight: z.number().int(),
  cropStencilClassName: z.string(),
})

export const designTemplatesSchema = z.object({
  productVariantId: z.number().int(),
  templates: z.array(pseudoTemplateSchema),
  backSides: z.array(backSideOptionSchema),
})
export type DesignTemplates = z.infer<typeof designTemplatesSchema>

export const baseImageHashSchema = z.object({
  productId: z.string(),
  /** sha256 (first 128 bits, hex) of each base image, keyed by its public path. */
  hashes: z.record(z.string(), z.string()),
})

export { previewWidths } from '../catalogue/ornaments'

export const scaledBaseImageQuerySchema = z.object({
  path: z.string().min(1).max(200),
  width: z.coerce
    .number()
    .int()
    .refine((w) => (previewWidths as readonly number[]).includes(w), { error: `width must be one of ${previewWidths.join(', ')}` }),
})

const bounded = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .min(min, { error: `${name} must be between ${min} and ${max}` })
    .max(max, { error: `${name} must be between ${min} and ${max}` })

/** A transform as sent; absurd values are refused, small overshoots are clamped by the layout. */
export const photoTransformSchema = z.object({
  x: bounded('x', -1_000_000, 1_000_000),
  y: bounded('y', -1_000_000, 1_000_000),
  zoom: bounded('zoom', 1, MAX_ZOOM),
  rotation: bounded('rotation', -360, 360),
})

export const previewCellSchema = z.object({
  cellId: z.string().min(1).max(64),
  photoId: z.uuid({ error: 'photoId must be a photo id (a UUID)' }),
  transform: photoTransformSchema,
})

export const generatePreviewRequestSchema = z.object({
  variantId: z.number({ error: 'variantId must be a whole number' }).int({ error: 'variantId must be a whole number' }),
  pseudoTemplateId: z.string().min(1).max(64),
  backSideId: z.string().min(1).max(64),
  cells: z.array(previewCellSchema).min(1, { error: 'Choose a photo for each ornament' }).max(8, { error: 'Too many photos' }),
  /** The personal lines, each ornament its own (issue 19); absent or null: none. */
  text: personalTextSchema.nullable().optional(),
})
export type GeneratePreviewRequest = z.infer<typeof generatePreviewRequestSchema>

export const printAreaSchema = z.object({ position: printAreaPositionSchema, imageUrl: z.string() })
export const sourceImageSchema = z.object({ cropped: z.string(), original: z.string() })

/** How sharp one cell's photo will print (app/compositor/print-quality.ts, decision 060). */
export const cellPrintQualitySchema = z.object({
  cellId: z.string(),
  grade: z.enum(['great', 'good', 'soft', 'refused']),
  /** Photo pixels per printed inch at print size, rounded down. */
  dpi: z.number().int(),
  /** Why it may look soft (soft only: a refused design is not rendered). */
  reason: z.string().optional(),
  /** What to do about it (soft only). */
  advice: z.string().optional(),
})
export type CellPrintQuality = z.infer<typeof cellPrintQualitySchema>
/** How one line reads on its photo in the print file (app/compositor/line-contrast.ts, LineContrast). */
export const lineContrastSchema = z.object({
  colour: z.enum(colourIds),
  halo: z.boolean(),
  /** WCAG 2 contrast ratio (1–21) of the line's colour against the photo under its glyphs, or against its halo. */
  ratio: z.number(),
  /** ratio < 3: hard to read on this photo. */
  poor: z.boolean(),
  /** Each palette colour's ratio against the photo under the glyphs (a property per colour: OpenAPI names them). */
  ratios: z.object(Object.fromEntries(colourIds.map((id) => [id, z.number()])) as Record<ColourId, z.ZodNumber>),
  /** The palette colour that reads best there. */
  best: z.enum(colourIds),
})
export type LineContrastOnWire = z.infer<typeof lineContrastSchema>

export const generatePreviewResponseSchema = z.object({
  /** The provider's product id (local provider: the preview id). */
  productId: z.string(),
  /** Mockup images, the front first. */
  images: z.array(z.string()),
  previewId: z.uuid(),
  provider: z.enum(['local', 'printify']),
  variantId: z.number().int(),
  pseudoTemplateId: z.string(),
  backSideId: z.string(),
  printAreas: z.array(printAreaSchema),
  sourceImages: z.array(sourceImageSchema),
  /** The personal lines the print file carries, or null. */
  text: personalTextSchema.nullable().default(null),
  /** Each photo cell's print quality, in the template's cell order (left ornament first). */
  printQuality: z.array(cellPrintQualitySchema),
  /** How each printed line reads on its photo, measured on the print file (decision 058); null without text. */
  lineContrast: z.object({ left: lineContrastSchema.optional(), right: lineContrastSchema.optional() }).nullable().default(null),
})
export type GeneratedPreview = z.infer<typeof generatePreviewResponseSchema>
