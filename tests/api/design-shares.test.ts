import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { designShareReactions, designShares, familyMembers } from '../../app/api/db/schema'
import { makeRenditions } from '../../app/api/media/images'
import { storePhoto } from '../../app/api/services/photo-library'
import { addAlbumPhotos, makeImage, type SeededPhoto } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * "Share for a look" (issue 19, part 5): Sam (the Okafor family) sends his star design to his family;
 * a guest in the same family opens it, loves it, leaves a note; Maya (the Rivera family) cannot see it.
 */
let t: TestApi
let sam: string
let maya: string
let guest: { cookie: string; user: { id: string; firstName: string } }
let okafor: SeededPhoto[]
let rivera: { id: string }[]
let designId: string

const STAR = 72965
const OKAFOR = demoAccounts[1].family
const RIVERA = demoAccounts[0].family
const base = '/v1/photo-products-design-shares'

const saveStar = (photoIds: string[], cookie = sam) =>
  t.request(`/v1/photo-products-designs/variants/${STAR}`, {
    method: 'PUT',
    cookie,
    json: {
      photos: Object.fromEntries(photoIds.map((id, i) => [['star-left', 'star-right'][i], id])),
      transforms: { 'star-left': { x: 12, y: -4, zoom: 1.4, rotation: 5 } },
      backSideId: '72965-3',
    },
  })
const share = (json: unknown, cookie = sam) => t.request(base, { method: 'POST', json, cookie })
const open = (token: string, cookie?: string) => t.request(`${base}/${token}`, { cookie })
const love = (token: string, cookie: string, method: 'PUT' | 'DELETE' = 'PUT') => t.request(`${base}/${token}/love`, { method, cookie })
const note = (token: string, cookie: string, json: unknown) => t.request(`${base}/${token}/note`, { method: 'PUT', cookie, json })

/** Every share and reaction row, to prove a refusal wrote nothing. */
const allRows = async () => ({ shares: await t.db.select().from(designShares), reactions: await t.db.select().from(designShareReactions) })

async function newShare() {
  const res = await share({ designId })
  expect(res.status).toBe(201)
  return res.body.token as string
}

beforeAll(async () => {
  t = await createTestApi()
  sam = await t.signIn(1)
  maya = await t.signIn(0)
  guest = await t.signInGuest()
  okafor = await addAlbumPhotos(t, OKAFOR.id, 3)
  rivera = await addAlbumPhotos(t, RIVERA.id, 1)
  const saved = await saveStar([okafor[0]!.id, okafor[1]!.id])
  expect(saved.status).toBe(200)
  designId = saved.body.id
})
afterAll(() => t.close())

describe('design shares', () => {
  let token: string

  it('sends a saved design to the sharer’s only family: an unguessable link, no choice needed', async () => {
    const res = await share({ designId })
    expect(res.status).toBe(201)
    token = res.body.token
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(res.body).toEqual({
      token,
      path: `/photo-products/shared/${token}`,
      url: `http://localhost:3000/photo-products/shared/${token}`,
      designId,
      family: { id: OKAFOR.id, name: OKAFOR.name },
      createdAt: t.now().toISOString(),
      reactions: [],
    })
    const again = await share({ designId })
    expect(again.body.token).not.toBe(token)
    await t.request(`${base}/${again.body.token}`, { method: 'DELETE', cookie: sam })
  })

  it('shows a member of the family the pair as shared, with only its two photos, the sharer’s first name and no prices', async () => {
    const res = await open(token, guest.cookie)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      token,
      sharerFirstName: 'Sam',
      familyName: OKAFOR.name,
      isSharer: false,
      variantId: STAR,
      shapeName: 'Star',
      photos: {
        'star-left': {
          id: okafor[0]!.id,
          url: `/v1/media/photos/${okafor[0]!.id}/smartphone.jpg`,
          thumbnailUrl: `/v1/media/photos/${okafor[0]!.id}/small.jpg`,
          width: okafor[0]!.width,
          height: okafor[0]!.height,
          focalPoint: okafor[0]!.focalPoint,
        },
        'star-right': expect.objectContaining({ id: okafor[1]!.id }),
      },
      transforms: { 'star-left': { x: 12, y: -4, zoom: 1.4, rotation: 5 } },
      text: null,
      sharedAt: t.now().toISOString(),
      reactions: [],
    })
    expect(JSON.stringify(res.body)).not.toMatch(/price|\$/i)
    // The photo URLs it names load for the member (the family's own album photos).
    expect((await t.request(res.body.photos['star-left'].thumbnailUrl, { cookie: guest.cookie })).status).toBe(200)
    // The sharer opens their own link too, and is told so.
    expect((await open(token, sam)).body.isSharer).toBe(true)
  })

  it('keeps the design as it was when shared: a later edit does not change what the family sees', async () => {
    expect((await saveStar([okafor[2]!.id, okafor[1]!.id])).status).toBe(200)
    const res = await open(token, guest.cookie)
    expect(res.body.photos['star-left'].id).toBe(okafor[0]!.id)
    expect(res.body.transforms['star-left']).toEqual({ x: 12, y: -4, zoom: 1.4, rotation: 5 })
    expect((await saveStar([okafor[0]!.id, okafor[1]!.id])).status).toBe(200)
  })

  it('is not found for anyone outside the family, for an unknown or malformed token; signed out must sign in', async () => {
    const before = await allRows()
    for (const res of [
      await open(token, maya),
      await open('AAAAAAAAAAAAAAAAAAAAAA', guest.cookie),
      await open('not-a-token', guest.cookie),
      await love(token, maya),
      await note(token, maya, { note: 'Nice' }),
      await t.request(`${base}/${token}`, { method: 'DELETE', cookie: maya }),
      await t.request(`${base}/${token}`, { method: 'DELETE', cookie: guest.cookie }),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toMatchObject({ code: 'not_found', message: 'Shared design not found' })
    }
    for (const res of [
      await open(token),
      await love(token, ''),
      await note(token, '', { note: 'Nice' }),
      await share({ designId }, ''),
      await t.request(`${base}?designId=${designId}`),
      await t.request(`${base}/${token}`, { method: 'DELETE' }),
    ]) {
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthenticated')
    }
    expect(await allRows()).toEqual(before)
  })

  it('takes one “Love it” per member: again changes nothing, and it can be taken back', async () => {
    t.setNow(new Date('2026-11-22T12:05:00Z'))
    const first = await love(token, guest.cookie)
    expect(first.status).toBe(200)
    expect(first.body.reactions).toEqual([{ firstName: guest.user.firstName, loved: true, note: null, mine: true, updatedAt: '2026-11-22T12:05:00.000Z' }])
    expect((await love(token, guest.cookie)).body.reactions).toHaveLength(1)
    const back = await love(token, guest.cookie, 'DELETE')
    expect(back.status).toBe(200)
    expect(back.body.reactions).toEqual([])
    expect((await allRows()).reactions).toEqual([])
    expect((await love(token, guest.cookie)).body.reactions[0].loved).toBe(true)
  })

  it('keeps one trimmed note per member, which its author edits and deletes', async () => {
    const res = await note(token, guest.cookie, { note: '  Grandma will cry (happy tears) 🎄  ' })
    expect(res.status).toBe(200)
    expect(res.body.reactions).toEqual([expect.objectContaining({ loved: true, note: 'Grandma will cry (happy tears) 🎄', mine: true })])
    const edited = await note(token, guest.cookie, { note: 'x'.repeat(139) + '🎄' })
    expect(edited.status).toBe(200)
    expect(edited.body.reactions[0].note).toBe('x'.repeat(139) + '🎄')
    const deleted = await t.request(`${base}/${token}/note`, { method: 'DELETE', cookie: guest.cookie })
    expect(deleted.body.reactions).toEqual([expect.objectContaining({ loved: true, note: null })])
    expect((await note(token, guest.cookie, { note: 'Perfect for the tree' })).status).toBe(200)
  })

  it.each([
    ['a note of 141 characters', { note: 'x'.repeat(141) }, 'A note is at most 140 characters'],
    ['an empty note', { note: '' }, 'Write a note, or delete it'],
    ['a note of spaces only', { note: '   ' }, 'Write a note, or delete it'],
    ['a line break', { note: 'Lovely\nreally' }, 'A note is one line of text: remove line breaks and tabs'],
    ['a tab', { note: 'Lovely\treally' }, 'A note is one line of text: remove line breaks and tabs'],
    ['a bell character', { note: 'Lovely\u0007' }, 'A note is one line of text: remove line breaks and tabs'],
    ['a line separator', { note: 'Lovely\u2028really' }, 'A note is one line of text: remove line breaks and tabs'],
    ['a number', { note: 5 }, 'Expected string, received number'],
    ['null', { note: null }, 'Expected string, received null'],
    ['no note at all', {}, 'Required'],
  ])('refuses %s with a 400, and changes nothing', async (_name, body, message) => {
    const before = await allRows()
    const res = await note(token, guest.cookie, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.issues).toEqual([{ path: 'body.note', message }])
    expect(await allRows()).toEqual(before)
  })

  it('refuses a body that is not JSON or a NUL character, and changes nothing', async () => {
    const before = await allRows()
    const notJson = await t.request(`${base}/${token}/note`, {
      method: 'PUT',
      cookie: guest.cookie,
      body: '{',
      headers: { 'content-type': 'application/json' },
    })
    expect(notJson.status).toBe(400)
    expect((await note(token, guest.cookie, { note: 'a\u0000b' })).status).toBe(400)
    expect(await allRows()).toEqual(before)
  })

  it('shows the sharer what the family said, and refuses the sharer’s own reaction', async () => {
    const res = await t.request(`${base}?designId=${designId}`, { cookie: sam })
    expect(res.status).toBe(200)
    expect(res.body.families).toEqual([{ id: OKAFOR.id, name: OKAFOR.name }])
    expect(res.body.shares).toHaveLength(1)
    expect(res.body.shares[0].reactions).toEqual([
      expect.objectContaining({ firstName: guest.user.firstName, loved: true, note: 'Perfect for the tree', mine: false }),
    ])
    const before = await allRows()
    const own = await love(token, sam)
    expect(own.status).toBe(422)
    expect(own.body.error.code).toBe('rule_broken')
    expect(await allRows()).toEqual(before)
  })

  it('is not found when sharing or listing another shopper’s design, an unknown one, or for a family the sharer is not in', async () => {
    const before = await allRows()
    for (const res of [
      await share({ designId }, maya),
      await share({ designId: randomUUID() }),
      await share({ designId, familyId: RIVERA.id }),
      await share({ designId, familyId: randomUUID() }),
      await t.request(`${base}?designId=${designId}`, { cookie: maya }),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe('not_found')
    }
    for (const res of [
      await share({ designId: 'design-1' }),
      await share({ designId, familyId: 7 }),
      await share({}),
      await share([designId]),
      await t.request(`${base}?designId=nope`, { cookie: sam }),
    ]) {
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
    }
    expect(await allRows()).toEqual(before)
  })

  it('refuses a design with photos the family cannot see (an upload), with a message saying why, and changes nothing', async () => {
    const upload = await storePhoto(
      t.db,
      t.storage,
      { id: randomUUID(), familyId: null, ownerUserId: t.users[1].id, source: 'upload', capturedAt: new Date() },
      await makeRenditions(await makeImage('jpeg', 80, 60), 'image/jpeg'),
    )
    expect((await saveStar([okafor[0]!.id, upload.id])).status).toBe(200)
    const before = await allRows()
    const res = await share({ designId })
    expect(res.status).toBe(422)
    expect(res.body.error).toMatchObject({
      code: 'rule_broken',
      message: `One photo in this design is not in ${OKAFOR.name}’s album (your own uploads, or another family’s photos), so your family could not see it. Use photos from ${OKAFOR.name}’s album to send it.`,
    })
    expect(await allRows()).toEqual(before)
    // The share already sent still shows the design as it was.
    expect((await open(token, guest.cookie)).body.photos['star-right'].id).toBe(okafor[1]!.id)
    expect((await saveStar([okafor[0]!.id, okafor[1]!.id])).status).toBe(200)
  })

  it('lets a sharer with several families choose, and asks them to', async () => {
    await t.db.insert(familyMembers).values({ familyId: RIVERA.id, userId: t.users[1].id, role: 'member' })
    const before = await allRows()
    const unchosen = await share({ designId })
    expect(unchosen.status).toBe(400)
    expect(unchosen.body.error.issues).toEqual([{ path: 'body.familyId', message: 'Choose which family to send it to' }])
    // The Riveras cannot see the Okafors' photos: refused, not shown with holes.
    expect((await share({ designId, familyId: RIVERA.id })).status).toBe(422)
    expect(await allRows()).toEqual(before)
    const listed = await t.request(`${base}?designId=${designId}`, { cookie: sam })
    expect(listed.body.families.map((f: { id: string }) => f.id).sort()).toEqual([OKAFOR.id, RIVERA.id].sort())
    // A Rivera design goes to the Riveras, and Maya sees it; the Okafor guest does not.
    const tree = await t.request('/v1/photo-products-designs/variants/72963', {
      method: 'PUT',
      cookie: sam,
      json: { photos: { 'tree-left': rivera[0]!.id }, transforms: {}, backSideId: null },
    })
    const sent = await share({ designId: tree.body.id, familyId: RIVERA.id })
    expect(sent.status).toBe(201)
    expect(sent.body.family).toEqual({ id: RIVERA.id, name: RIVERA.name })
    expect((await open(sent.body.token, maya)).status).toBe(200)
    expect((await open(sent.body.token, guest.cookie)).status).toBe(404)
    await t.db.delete(familyMembers).where(and(eq(familyMembers.familyId, RIVERA.id), eq(familyMembers.userId, t.users[1].id)))
    // Sam left the Riveras: his own link still opens for him, and he can still stop it.
    expect((await open(sent.body.token, sam)).status).toBe(200)
  })

  it('is not found for a member who has left the family', async () => {
    const other = await t.signInGuest('203.0.113.9')
    expect((await open(token, other.cookie)).status).toBe(200)
    await t.db.delete(familyMembers).where(and(eq(familyMembers.familyId, OKAFOR.id), eq(familyMembers.userId, other.user.id)))
    expect((await open(token, other.cookie)).status).toBe(404)
  })

  it('stops a revoked link at once: every call is not found, and the sharer’s list no longer has it', async () => {
    const res = await t.request(`${base}/${token}`, { method: 'DELETE', cookie: sam })
    expect(res.status).toBe(200)
    expect(res.body.shares).toEqual([])
    const before = await allRows()
    for (const after of [
      await open(token, guest.cookie),
      await open(token, sam),
      await love(token, guest.cookie),
      await note(token, guest.cookie, { note: 'Hello?' }),
      await t.request(`${base}/${token}/note`, { method: 'DELETE', cookie: guest.cookie }),
      await t.request(`${base}/${token}`, { method: 'DELETE', cookie: sam }),
    ]) {
      expect(after.status).toBe(404)
    }
    expect(await allRows()).toEqual(before)
  })

  it('deleting the design deletes its shares', async () => {
    const live = await newShare()
    expect((await t.request(`/v1/photo-products-designs/${designId}`, { method: 'DELETE', cookie: sam })).status).toBe(200)
    expect((await open(live, guest.cookie)).status).toBe(404)
    expect((await t.db.select().from(designShares).where(eq(designShares.designId, designId))).length).toBe(0)
  })

  it('is published in the OpenAPI document', async () => {
    const doc = (await t.request('/v1/openapi.json')).body
    expect(Object.keys(doc.paths['/photo-products-design-shares'])).toEqual(expect.arrayContaining(['get', 'post']))
    expect(Object.keys(doc.paths['/photo-products-design-shares/{token}/note'])).toEqual(expect.arrayContaining(['put', 'delete']))
  })
})
