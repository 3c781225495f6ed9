import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { analyticsEvents, partnerOfferClicks, partnerOffers } from '../../app/api/db/schema'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import { demoOffers, seedDemoOffers } from '../../app/api/demo/offers'
import { OFFER_CLICKS_PER_ADDRESS } from '../../app/api/services/offers'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
const sid = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b'

beforeAll(async () => {
  t = await createTestApi()
  await seedDemoOffers(t.db)
  await seedDemoOffers(t.db)
})
afterAll(() => t.close())
beforeEach(async () => {
  await t.db.delete(partnerOfferClicks)
  await t.db.delete(analyticsEvents)
  await t.db.update(partnerOffers).set({ active: true })
  t.api.deps.rateLimiter = new MemoryRateLimiter()
})

const clicks = () => t.db.select().from(partnerOfferClicks)

describe('the offer wall (/fmn)', () => {
  it('lists the active offers in display order, without their target URLs', async () => {
    const res = await t.request('/v1/fmn/offers')
    expect(res.status).toBe(200)
    expect(res.body.offers.map((o: { id: string }) => o.id)).toEqual(demoOffers.map((o) => o.id))
    expect(res.body.offers[0]).toMatchObject({
      id: 'little-reader-books',
      partner: 'Little Reader Book Club',
      partnerHost: 'littlereader.example',
      clickUrl: '/v1/fmn/offers/little-reader-books/click',
      imageUrl: '/fmn/offers/little-reader-books.svg',
    })
    expect(JSON.stringify(res.body)).not.toContain('ref=keepsake')
  })

  it('answers one offer, and 404 for an unknown or retired one, 400 for a malformed id', async () => {
    expect((await t.request('/v1/fmn/offers/meal-kit-family')).body.title).toBe('Family meal kit: 50% off your first box')
    expect((await t.request('/v1/fmn/offers/no-such-offer')).status).toBe(404)
    await t.db.update(partnerOffers).set({ active: false }).where(eq(partnerOffers.id, 'meal-kit-family'))
    expect((await t.request('/v1/fmn/offers/meal-kit-family')).status).toBe(404)
    expect((await t.request('/v1/fmn/offers')).body.offers).toHaveLength(demoOffers.length - 1)
    expect((await t.request('/v1/fmn/offers/Bad%20Id')).status).toBe(400)
  })

  it('a click is recorded (row and DidClickFmnOffer event) and redirects to the stored https URL only', async () => {
    const cookie = await t.signIn(0)
    const res = await t.request(`/v1/fmn/offers/kids-swim-lessons/click?sid=${sid}&from=/fmn/offers/kids-swim-lessons`, { cookie, redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('https://splashswim.example/trial')
    expect(await clicks()).toMatchObject([{ offerId: 'kids-swim-lessons', userId: t.users[0].id, sid, fromPath: '/fmn/offers/kids-swim-lessons' }])
    const [event] = await t.db.select().from(analyticsEvents)
    expect(event).toMatchObject({ name: 'DidClickFmnOffer', sid, path: '/fmn/offers/kids-swim-lessons', properties: { offerId: 'kids-swim-lessons' } })
  })

  it.each([
    ['a redirect target in the query', '/v1/fmn/offers/kids-swim-lessons/click?url=https://evil.example&next=//evil.example', 302],
    ['a malformed sid', '/v1/fmn/offers/kids-swim-lessons/click?sid=nope', 400],
    ['a from that is not a path on this site', '/v1/fmn/offers/kids-swim-lessons/click?from=//evil.example', 400],
    ['an unknown offer', '/v1/fmn/offers/evil/click', 404],
  ])('%s never leads anywhere but the stored URL', async (_name, path, status) => {
    const res = await t.request(path, { redirect: 'manual' })
    expect(res.status).toBe(status)
    if (status === 302) expect(res.headers.get('location')).toBe('https://splashswim.example/trial')
    else {
      expect(res.headers.get('location')).toBeNull()
      expect(await clicks()).toEqual([])
    }
  })

  it('a burst of clicks from one address still redirects but is counted only up to the limit', async () => {
    for (let i = 0; i < OFFER_CLICKS_PER_ADDRESS.limit + 3; i++) {
      const res = await t.request('/v1/fmn/offers/photo-book-print/click', { redirect: 'manual' })
      expect(res.status).toBe(302)
    }
    expect(await clicks()).toHaveLength(OFFER_CLICKS_PER_ADDRESS.limit)
  })

  it('the database refuses an offer whose target is not https', async () => {
    await expect(t.db.insert(partnerOffers).values({ ...demoOffers[0]!, id: 'plain-http', targetUrl: 'http://insecure.example' })).rejects.toThrow()
    await expect(t.db.insert(partnerOffers).values({ ...demoOffers[0]!, id: 'js-url', targetUrl: 'javascript:alert(1)' })).rejects.toThrow()
  })
})
