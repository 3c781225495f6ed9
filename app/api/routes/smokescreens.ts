import type { Context } from 'hono'
import { Hono } from 'hono'
import { deliveryRequestSchema, smokescreenSignupSchema, waitlistRequestSchema } from '../../contract/smokescreens'
import { currentClientAddress } from '../client-address'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { signUp } from '../services/smokescreens'

export const smokescreenRoutes = new Hono<ApiEnv>()

/** 201 for a new sign-up, 200 when this shopper (or e-mail) had already signed up for the product. */
const answer = (c: Context<ApiEnv>, result: Awaited<ReturnType<typeof signUp>>) => c.json(smokescreenSignupSchema.parse(result), result.created ? 201 : 200)

endpoint(
  smokescreenRoutes,
  {
    method: 'post',
    path: '/smokescreens/waitlist',
    tag: 'smokescreens',
    summary: '"Notify me" for a product not sold yet: the form fields plus product and sourcePage (once per shopper and product)',
    auth: 'none',
    body: waitlistRequestSchema,
    response: smokescreenSignupSchema,
    status: 201,
  },
  async ({ body, user }, c) => answer(c, await signUp(c.get('deps'), 'waitlist', body, user, currentClientAddress())),
)

endpoint(
  smokescreenRoutes,
  {
    method: 'post',
    path: '/smokescreens/delivery',
    tag: 'smokescreens',
    summary: '"Deliver to me" interest for a product not sold yet: delivery fields plus product (once per shopper and product)',
    auth: 'none',
    body: deliveryRequestSchema,
    response: smokescreenSignupSchema,
    status: 201,
  },
  async ({ body, user }, c) => answer(c, await signUp(c.get('deps'), 'delivery', body, user, currentClientAddress())),
)
