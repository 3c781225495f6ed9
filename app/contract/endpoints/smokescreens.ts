import type { Endpoint } from '../endpoint'
import { deliveryRequestSchema, smokescreenReportSchema, smokescreenSignupSchema, waitlistRequestSchema } from '../smokescreens'

export const smokescreensApi = {
  joinWaitlist: {
    method: 'post',
    path: '/smokescreens/waitlist',
    tag: 'smokescreens',
    summary: '"Notify me" for a product not sold yet: the form fields plus product and sourcePage (once per shopper and product)',
    auth: 'none',
    body: waitlistRequestSchema,
    response: smokescreenSignupSchema,
    status: 201,
    alsoAnswers: { 200: 'This shopper (or e-mail) had already signed up for the product' },
  },
  requestDelivery: {
    method: 'post',
    path: '/smokescreens/delivery',
    tag: 'smokescreens',
    summary: '"Deliver to me" interest for a product not sold yet: delivery fields plus product (once per shopper and product)',
    auth: 'none',
    body: deliveryRequestSchema,
    response: smokescreenSignupSchema,
    status: 201,
    alsoAnswers: { 200: 'This shopper (or e-mail) had already signed up for the product' },
  },
  report: {
    method: 'get',
    path: '/smokescreens/report',
    tag: 'smokescreens',
    summary: "The team's report: sign-ups per product and kind, most wanted first (demo mode only)",
    auth: 'none',
    response: smokescreenReportSchema,
  },
} as const satisfies Record<string, Endpoint>
