import { smokescreensApi } from '../../contract/endpoints/smokescreens'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { smokescreenSignupSchema } from '../../contract/smokescreens'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError } from '../errors'
import { signUp, smokescreenTallies } from '../services/smokescreens'

export const smokescreenRoutes = new Hono<ApiEnv>()

/** 201 for a new sign-up, 200 when this shopper (or e-mail) had already signed up for the product. */
const answer = (c: Context<ApiEnv>, result: Awaited<ReturnType<typeof signUp>>) => c.json(smokescreenSignupSchema.parse(result), result.created ? 201 : 200)

endpoint(smokescreenRoutes, smokescreensApi.joinWaitlist, async ({ body, user }, c) =>
  answer(c, await signUp(c.get('deps'), 'waitlist', body, user, currentClientAddress())),
)

endpoint(smokescreenRoutes, smokescreensApi.requestDelivery, async ({ body, user }, c) =>
  answer(c, await signUp(c.get('deps'), 'delivery', body, user, currentClientAddress())),
)

/** The team's report exists only in demo mode; otherwise the path does not exist (404), as /demo/* does. */
smokescreenRoutes.use('/smokescreens/report', async (c, next) => {
  if (!c.get('deps').config.demoMode) throw new AppError('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`)
  await next()
})

endpoint(smokescreenRoutes, smokescreensApi.report, (_input, c) => {
  const { db, now } = c.get('deps')
  return smokescreenTallies(db, now())
})
