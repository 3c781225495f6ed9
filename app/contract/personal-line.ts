/**
 * The personal lines on the wire (issue 19, part 1): `{ left?, right? }`, each ornament's own
 * `{ line, typeface, colour, halo? }`, optional wherever a design travels (preview request, saved design,
 * cart line, order). Each line is trimmed and
 * normalised (NFC), then checked by the same rule as the designer's field (catalogue/personal-line.ts):
 * at most 40 characters, no control characters, every character drawable by the typeface's font.
 */
import { colourIds, normalisePersonalLine, ornamentSides, personalLineProblem, typefaceIds } from '../catalogue/personal-line'
import { z } from './zod'

/** A bound on what is read before the rule counts characters (40 graphemes are rarely over 160 code units). */
const MAX_RAW_LENGTH = 400

export const personalLineSchema = z
  .object({
    line: z.string({ error: 'line must be text' }).max(MAX_RAW_LENGTH, { error: 'Use at most 40 characters' }).transform(normalisePersonalLine),
    typeface: z.enum(typefaceIds, { error: `typeface must be one of ${typefaceIds.join(', ')}` }),
    colour: z.enum(colourIds, { error: `colour must be one of ${colourIds.join(', ')}` }),
    /** A thin halo of the contrasting colour around the letters (issue 32, item 1); absent or false: none. */
    halo: z.boolean({ error: 'halo must be true or false' }).optional(),
  })
  .superRefine((text, ctx) => {
    const problem = personalLineProblem(text.line, text.typeface)
    if (problem) ctx.addIssue({ code: 'custom', path: ['line'], message: problem })
  })
  // One way to say "no halo": the field is kept only when it is on, so a line stores and compares the same either way.
  .transform(({ halo, ...line }) => (halo ? { ...line, halo: true as const } : line))
export type PersonalLineInput = z.infer<typeof personalLineSchema>

/** A design's text: a line for the left ornament, the right one, or both (the same line twice when it is the same). */
export const personalTextSchema = z
  .object({
    left: personalLineSchema.optional(),
    right: personalLineSchema.optional(),
  })
  .refine((text) => ornamentSides.some((side) => text[side] !== undefined), {
    error: 'Give a line for the left or the right ornament, or leave the text out',
  })
