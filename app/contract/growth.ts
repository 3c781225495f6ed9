import { z } from './zod'

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
export type TransitionToken = z.infer<typeof transitionTokenSchema>

export const demoUserSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.email(),
  familyName: z.string(),
})
export const demoUsersSchema = z.object({ users: z.array(demoUserSchema) })
export const demoSignInSchema = z.object({ userId: z.uuid() })
