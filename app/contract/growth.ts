import { z } from './zod'
import { emailAddress } from './field-messages'
import { safeRedirectPath } from './redirect-path'

export const sessionUserSchema = z.object({
  id: z.uuid(),
  email: z.email(),
  firstName: z.string(),
  lastName: z.string(),
})

export const authenticateSessionSchema = z.object({
  authenticated: z.boolean(),
  user: sessionUserSchema.nullable(),
})
export type AuthenticateSession = z.infer<typeof authenticateSessionSchema>

export const transitionTokenSchema = z.object({
  transitionToken: z.string(),
  expiresAt: z.iso.datetime(),
})

export const demoUserSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.email(),
  familyName: z.string(),
})
export const demoUsersSchema = z.object({ users: z.array(demoUserSchema) })
export const demoSignInSchema = z.object({ userId: z.uuid() })

/** Issue 16: a one-time sign-in link, e-mailed to the address of an album account. */
export { SIGN_IN_LINK_TTL_MINUTES, SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR, SIGN_IN_LINKS_PER_HOUR } from '../catalogue/sign-in-terms'

export const signInLinkRequestSchema = z.object({
  email: emailAddress('your'),
  /**
   * Where to land once signed in: a path on this site, normalised (safeRedirectPath). Anything else is
   * refused (400), never replaced: the store's pages only send paths they already normalised, so a bad
   * one comes from a caller of the API (decision 039).
   */
  redirect: z
    .string()
    .max(512, { error: 'The page to return to can be at most 512 characters' })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined
      const path = safeRedirectPath(value)
      if (path === undefined) ctx.addIssue({ code: 'custom', message: 'The page to return to must be a path on this site, such as /photo-products' })
      return path
    }),
})

/** The same answer whether or not the address has an account (no account probing). */
export const signInLinkSentSchema = z.object({ sent: z.literal(true), expiresInMinutes: z.number().int() })

export const signInLinkRedeemSchema = z.object({ token: z.string().min(1).max(128) })

export const signedInSchema = authenticateSessionSchema.extend({ redirect: z.string() })

export const signedOutSchema = z.object({ authenticated: z.literal(false), sessionsEnded: z.number().int() })
