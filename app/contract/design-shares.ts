/**
 * "Share for a look" (issue 19, part 5; decision 035): a saved design sent to one of the sharer's
 * album families through an unguessable link. Family members see the pair as it was when shared
 * (no prices) and answer "Love it" or a one-line note; the sharer sees the answers and can revoke.
 */
import { noteProblem } from '../catalogue/design-share-terms'
import { personalTextSchema } from './personal-line'
import { savedDesignPhotoSchema, savedDesignTransformSchema } from './saved-designs'
import { z } from './zod'

/** Any string: a token that is not one of ours is a link that does not exist (404), not bad input. */
export const designShareTokenParamsSchema = z.object({ token: z.string() })

export const createDesignShareRequestSchema = z.object({
  designId: z.uuid({ error: 'designId must be a design id (a UUID)' }),
  /** Which of the sharer's families sees it; may be left out when the sharer has exactly one. */
  familyId: z.uuid({ error: 'familyId must be a family id (a UUID)' }).optional(),
})
export type CreateDesignShareRequest = z.infer<typeof createDesignShareRequestSchema>

export const designSharesQuerySchema = z.object({
  designId: z.uuid({ error: 'designId must be a design id (a UUID)' }),
})

export const designShareNoteRequestSchema = z.object({
  note: z
    .string()
    .superRefine((note, ctx) => {
      const problem = noteProblem(note)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    })
    .transform((note) => note.trim()),
})
export type DesignShareNoteRequest = z.infer<typeof designShareNoteRequestSchema>

export const designShareReactionSchema = z.object({
  /** The member's first name as the album knows it. */
  firstName: z.string(),
  loved: z.boolean(),
  note: z.string().nullable(),
  /** Whether the signed-in shopper wrote it. */
  mine: z.boolean(),
  updatedAt: z.string(),
})
export type DesignShareReaction = z.infer<typeof designShareReactionSchema>

const familySchema = z.object({ id: z.uuid(), name: z.string() })

/** A share as its sharer sees it in the designer. */
export const ownDesignShareSchema = z.object({
  token: z.string(),
  /** The store path of the link (root-relative, like our media URLs). */
  path: z.string(),
  /** The link to send, under the store's public address (PUBLIC_URL). */
  url: z.string(),
  designId: z.uuid(),
  family: familySchema,
  createdAt: z.string(),
  reactions: z.array(designShareReactionSchema),
})
export type OwnDesignShare = z.infer<typeof ownDesignShareSchema>

export const ownDesignSharesSchema = z.object({
  /** The families the sharer can send to (the designer offers a choice when there are several). */
  families: z.array(familySchema),
  /** The design's live shares, newest first. */
  shares: z.array(ownDesignShareSchema),
})
export type OwnDesignShares = z.infer<typeof ownDesignSharesSchema>

/** A share as a family member sees it: the design as shared, who sent it, the answers. No prices. */
export const sharedDesignSchema = z.object({
  token: z.string(),
  sharerFirstName: z.string(),
  familyName: z.string(),
  /** Whether the signed-in shopper is the one who shared it (they see the answers, and do not answer). */
  isSharer: z.boolean(),
  variantId: z.number().int(),
  shapeName: z.string(),
  /** Photos per cell: only those of the family's album the design uses. */
  photos: z.record(z.string(), savedDesignPhotoSchema),
  transforms: z.record(z.string(), savedDesignTransformSchema),
  /** Each ornament's personal line as shared, or null. */
  text: personalTextSchema.nullable(),
  sharedAt: z.string(),
  reactions: z.array(designShareReactionSchema),
})
export type SharedDesign = z.infer<typeof sharedDesignSchema>
