import * as z from 'zod/mini'
import { boolean, int, isoDateTimeWithOffset, refine, uuid } from '~/lib/lean-zod'
import { MAX_ZOOM } from '~/catalogue/ornaments'
import { checkPersonalLine, colourIds, ornamentSides, sameLineOnBoth, textOrNull, typefaceIds, type PersonalText } from '~/catalogue/personal-line'
import type { PhotoTransform } from '~/compositor/layout'

/**
 * The shopper's unfinished design, kept in localStorage per variant so a reload (or a trip to the
 * album app and back) finds it again. zod/mini keeps the designer's bundle small; the wire
 * contract's schemas stay in app/contract.
 */
export const draftKey = (variantId: number) => `keepsake.design.${variantId}`

/** Far more than a real draft needs (two photos, two transforms); anything longer is not ours. */
const MAX_DRAFT_CHARS = 16_000
const MAX_CELLS = 8

const bounded = (min: number, max: number) => z.number().check(z.gte(min), z.lte(max))

/** Our media URLs: absolute http(s), or a same-origin path. */
const photoUrlSchema = z.string().check(
  z.maxLength(2048),
  refine((url: string) => /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//')), 'Expected a photo URL'),
)

const draftPhotoSchema = z.object({
  id: uuid(),
  /** The smartphone rendition, drawn by the live preview. */
  url: photoUrlSchema,
  /** The original's size, for the print-quality check. */
  width: int().check(z.gte(1), z.lte(100_000)),
  height: int().check(z.gte(1), z.lte(100_000)),
  /** Where the photo's subject is (fractions of its size), for its smart placement; absent on older drafts. */
  focalPoint: z.optional(z.nullable(z.object({ x: bounded(0, 1), y: bounded(0, 1) }))),
})
export type DraftPhoto = z.infer<typeof draftPhotoSchema>

const transformSchema = z.object({
  x: bounded(-1_000_000, 1_000_000),
  y: bounded(-1_000_000, 1_000_000),
  zoom: bounded(1, MAX_ZOOM),
  rotation: bounded(-360, 360),
})

const cellIdSchema = z.string().check(z.minLength(1), z.maxLength(64))
const fewCells = <T extends object>(record: T) => Object.keys(record).length <= MAX_CELLS

/** One ornament's line as the designer keeps it; one the rule refuses (an older rule, a hand-edited draft) is dropped on reading. */
const lineSchema = z.object({
  line: z.string().check(z.maxLength(400)),
  typeface: z.enum(typefaceIds),
  colour: z.enum(colourIds),
  /** A halo around the letters (decision 058); drafts kept before it have none. */
  halo: z.optional(boolean()),
})
/** Each ornament's line; a draft kept before the ornaments had a line each holds one line, printed on both. */
const textSchema = z.union([lineSchema, z.object({ left: z.optional(lineSchema), right: z.optional(lineSchema) })])

function textOfKept(kept: z.infer<typeof textSchema> | null | undefined): PersonalText | null {
  if (!kept) return null
  const sides = 'line' in kept ? sameLineOnBoth(kept) : kept
  const text: PersonalText = {}
  for (const side of ornamentSides) {
    const line = sides[side] && checkPersonalLine(sides[side]).line
    if (line) text[side] = line
  }
  return textOrNull(text)
}

const draftSchema = z.object({
  photos: z.record(cellIdSchema, draftPhotoSchema).check(refine(fewCells)),
  transforms: z.record(cellIdSchema, transformSchema).check(refine(fewCells)),
  backSideId: z.nullable(z.string().check(z.maxLength(64))),
  editedAt: z.optional(isoDateTimeWithOffset()),
  owner: z.optional(z.nullable(uuid())),
  synced: z.optional(boolean()),
  text: z.optional(z.nullable(textSchema)),
})
export type Draft = {
  photos: Record<string, DraftPhoto>
  transforms: Record<string, PhotoTransform>
  backSideId: string | null
  /** When the shopper last changed it on this device (absent on drafts kept before accounts kept designs). */
  editedAt?: string
  /** Who was signed in when it was changed: a user id, or null when signed out. */
  owner?: string | null
  /** True once the owner's account holds exactly this version (app/features/designer/draft-merge.ts). */
  synced?: boolean
  /** Each ornament's personal line (issue 19, part 1). */
  text?: PersonalText | null
}

/** The saved draft, or null when there is none or it is unreadable (a corrupt draft is dropped). */
export function readDraft(variantId: number): Draft | null {
  try {
    const raw = localStorage.getItem(draftKey(variantId))
    if (raw === null) return null
    const parsed = raw.length <= MAX_DRAFT_CHARS ? draftSchema.safeParse(JSON.parse(raw)) : null
    if (parsed?.success) {
      const { text, ...draft } = parsed.data
      const kept = textOfKept(text)
      return kept ? { ...draft, text: kept } : draft
    }
    localStorage.removeItem(draftKey(variantId))
  } catch {
    // Storage disabled, or a draft that is not JSON: start afresh.
  }
  return null
}

export function removeDraft(variantId: number) {
  try {
    localStorage.removeItem(draftKey(variantId))
  } catch {
    // Storage disabled: there is nothing to remove.
  }
}

export function writeDraft(variantId: number, draft: Draft) {
  try {
    localStorage.setItem(draftKey(variantId), JSON.stringify(draft))
  } catch {
    // A full or disabled storage only costs the shopper their draft on reload.
  }
}
