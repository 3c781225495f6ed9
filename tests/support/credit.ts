import { eq } from 'drizzle-orm'
import { creditEntries, outboxEmails } from '../../app/api/db/schema'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { createSession } from '../../app/api/services/accounts'
import { SESSION_COOKIE } from '../../app/contract/headers'
import { REFERRAL_COOKIE } from '../../app/contract/referral'
import type { TestApi } from './test-api'

/**
 * A brand-new shopper holding the welcome credit of a referral ($10.00, through the API as a shopper gets
 * it): answers their cookie and user. `t.users[0]` is the advocate.
 */
export async function creditedShopper(t: TestApi) {
  const advocateCookie = `${SESSION_COOKIE}=${(await createSession(t.db, t.users[0].id, t.now())).token}`
  const code = (await t.request('/v1/growth/advocate/redemptions', { cookie: advocateCookie })).body.code as string
  const shopper = await t.signInGuest()
  const redeemed = await t.request('/v1/growth/referred/redemptions', {
    method: 'POST',
    cookie: `${shopper.cookie}; ${REFERRAL_COOKIE}=${code}`,
    json: { timezone: 'UTC' },
  })
  if (redeemed.status !== 201) throw new Error(`referral redemption failed: ${redeemed.status} ${JSON.stringify(redeemed.body)}`)
  return shopper
}

/**
 * The shopper's balance as GET /v1/store-credit answers it, and the sum of every entry of their ledger
 * (the endpoint lists only the latest 50, so the sum is read from the table).
 */
export async function storeCreditOf(t: TestApi, cookie: string, userId: string) {
  const res = await t.request('/v1/store-credit', { cookie })
  if (res.status !== 200) throw new Error(`store credit: ${res.status}`)
  const entries = await t.db.select({ amountCents: creditEntries.amountCents }).from(creditEntries).where(eq(creditEntries.userId, userId))
  return { balanceCents: res.body.balanceCents as number, ledgerSumCents: entries.reduce((n, e) => n + e.amountCents, 0) }
}

/** A paid e-gift of `amountCents`, bought by `buyerCookie` on the local checkout: answers its code, from the gift's e-mail. */
export async function giftCode(t: TestApi, buyerCookie: string, amountCents: number) {
  const bought = await t.request('/v1/egifts/purchases', {
    method: 'POST',
    cookie: buyerCookie,
    headers: { 'x-keepsake-timezone': 'UTC' },
    json: { amountCents, recipientName: 'Maya', recipientEmail: 'maya@example.com', senderName: 'Gran', message: 'For the ornaments' },
  })
  if (bought.status !== 201) throw new Error(`e-gift purchase failed: ${bought.status} ${JSON.stringify(bought.body)}`)
  const paid = await t.request(`/v1/checkout/local/${bought.body.checkoutSessionId}/pay`, {
    method: 'POST',
    cookie: buyerCookie,
    json: { cardNumber: LOCAL_TEST_CARDS.succeeds },
  })
  if (paid.status !== 200) throw new Error(`e-gift payment failed: ${paid.status}`)
  const [email] = await t.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.reference, `egift:${bought.body.id}`))
  return email!.text.match(/KEEP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)![0]
}
