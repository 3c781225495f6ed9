import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { savedAddresses } from '../../app/api/db/schema'
import { MAX_SAVED_ADDRESSES } from '../../app/contract/addresses'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let cookie: string
let otherCookie: string

const base = '/v1/photo-products-addresses'
const rose = {
  label: 'Grandma Rose',
  name: 'Rose Rivera',
  email: '',
  phone: '',
  line1: '12 Orchard Lane',
  line2: '',
  city: 'Burlington',
  state: 'VT',
  postalCode: '05401',
  country: 'US',
}
const create = (json: unknown, as = cookie) => t.request(base, { method: 'POST', json, cookie: as })
const update = (id: string, json: unknown, as = cookie) => t.request(`${base}/${id}`, { method: 'PUT', json, cookie: as })
const remove = (id: string, as = cookie) => t.request(`${base}/${id}`, { method: 'DELETE', cookie: as })
const list = (as = cookie) => t.request(base, { cookie: as })
/** Every stored row, to prove a refusal wrote nothing. */
const allRows = () => t.db.select().from(savedAddresses).orderBy(savedAddresses.id)

beforeAll(async () => {
  t = await createTestApi()
  cookie = await t.signIn(0)
  otherCookie = await t.signIn(1)
})
afterAll(() => t.close())

describe('the address book', () => {
  it('asks a signed-out client to sign in for every call, and changes nothing', async () => {
    const id = randomUUID()
    for (const res of [await t.request(base), await t.request(base, { method: 'POST', json: rose }), await update(id, rose, ''), await remove(id, '')]) {
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthenticated')
    }
    expect(await allRows()).toEqual([])
  })

  it('starts empty, with the limit it keeps', async () => {
    expect((await list()).body).toEqual({ addresses: [], limit: MAX_SAVED_ADDRESSES })
  })

  it('saves an address, tidied (trimmed, the state in capitals), and lists it', async () => {
    const res = await create({ ...rose, label: '  Grandma Rose ', state: 'vt', postalCode: '05401-1234', email: ' rose@example.com ' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ ...rose, state: 'VT', postalCode: '05401-1234', email: 'rose@example.com' })
    expect((await list()).body.addresses).toEqual([res.body])
  })

  it('takes an address without e-mail, phone or country (the United States)', async () => {
    const { email: _e, phone: _p, line2: _l, country: _c, ...bare } = rose
    const res = await create({ ...bare, label: 'Aunt May', city: 'Austin', state: 'TX', postalCode: '73301' })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ email: '', phone: '', line2: '', country: 'US', state: 'TX' })
    expect((await list()).body.addresses.map((a: { label: string }) => a.label)).toEqual(['Aunt May', 'Grandma Rose'])
  })

  it.each([
    ['no name for the address', { label: '' }, 'body.label', 'Enter a name for this address'],
    ['a name for the address over 40 characters', { label: 'x'.repeat(41) }, 'body.label', 'can be at most 40 characters'],
    ['no recipient', { name: ' ' }, 'body.name', 'Enter the recipient’s name'],
    ['a malformed e-mail', { email: 'rose@' }, 'body.email', 'doesn’t look like an e-mail address'],
    ['a phone with letters', { phone: 'call me' }, 'body.phone', 'digits only'],
    ['no street address', { line1: '' }, 'body.line1', 'Enter the street address'],
    ['a street address over 200 characters', { line1: 'x'.repeat(201) }, 'body.line1', 'at most 200 characters'],
    ['no city', { city: '' }, 'body.city', 'Enter the city'],
    ['a state that is not one', { state: 'ZZ' }, 'body.state', 'Choose a state'],
    ['Puerto Rico (we ship to the states and DC)', { state: 'PR', postalCode: '00901' }, 'body.state', 'Choose a state'],
    ['no state', { state: undefined }, 'body.state', 'Choose a state'],
    ['a four-digit ZIP code', { postalCode: '0540' }, 'body.postalCode', 'ZIP code must be 5 digits'],
    ['a ZIP code of another state', { postalCode: '10001' }, 'body.postalCode', 'ZIP code 10001 is not in Vermont'],
    ['Massachusetts’ 055 given as Vermont', { postalCode: '05501' }, 'body.postalCode', 'is not in Vermont'],
    ['another country', { country: 'CA' }, 'body.country', 'United States only'],
    ['a label that is a number', { label: 12 }, 'body.label', 'Enter a name for this address'],
  ])('refuses %s, at its field, and changes nothing', async (_name, overrides, path, message) => {
    const before = await allRows()
    const [first] = before
    for (const res of [await create({ ...rose, ...overrides }), await update(first!.id, { ...rose, ...overrides })]) {
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
      const issue = res.body.error.issues.find((i: { path: string }) => i.path === path)
      expect(issue?.message).toContain(message)
    }
    expect(await allRows()).toEqual(before)
  })

  it('refuses a body that is not an address object, and changes nothing', async () => {
    const before = await allRows()
    for (const json of [null, [], 'Grandma', 42]) expect((await create(json)).status).toBe(400)
    expect(await allRows()).toEqual(before)
  })

  it('changes a saved address, and says when', async () => {
    const [saved] = (await list()).body.addresses
    t.setNow(new Date(Date.now() + 60_000))
    const res = await update(saved.id, { ...rose, label: 'Grandma Rose', line1: '14 Orchard Lane', postalCode: '05401' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: saved.id, line1: '14 Orchard Lane', createdAt: saved.createdAt })
    expect(res.body.updatedAt > saved.updatedAt).toBe(true)
  })

  it('keeps each shopper’s addresses their own: another shopper and a member of the family get 404 and change nothing', async () => {
    const [mine] = (await list()).body.addresses
    const guest = await t.signInGuest()
    const familyOfOther = guest.cookie
    // The guest joins user 1's family; user 0's address is neither theirs nor their family's, and user 1 saves one of their own.
    const theirs = (await create({ ...rose, label: 'Gran', city: 'Denver', state: 'CO', postalCode: '80202' }, otherCookie)).body
    const before = await allRows()
    for (const as of [otherCookie, familyOfOther]) {
      expect((await list(as)).body.addresses.map((a: { id: string }) => a.id)).not.toContain(mine.id)
      for (const res of [await update(mine.id, rose, as), await remove(mine.id, as)]) {
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('not_found')
      }
    }
    // The family member does not see user 1's address either: an address is its shopper's, not the family's.
    expect((await list(familyOfOther)).body.addresses).toEqual([])
    expect((await update(theirs.id, rose, familyOfOther)).status).toBe(404)
    expect(await allRows()).toEqual(before)
  })

  it('answers 404 for an address that does not exist and 400 for an id that is not one', async () => {
    const before = await allRows()
    expect((await update(randomUUID(), rose)).status).toBe(404)
    expect((await remove(randomUUID())).status).toBe(404)
    for (const id of ['12', 'x'.repeat(300), `${randomUUID()}0`]) {
      const res = await remove(id)
      expect(res.status).toBe(400)
      expect(res.body.error.issues[0].path).toBe('params.id')
    }
    expect(await allRows()).toEqual(before)
  })

  it('removes an address and answers the ones left; removing it again is not found', async () => {
    const { addresses } = (await list()).body
    const res = await remove(addresses[0].id)
    expect(res.status).toBe(200)
    expect(res.body.addresses).toEqual(addresses.slice(1))
    expect((await remove(addresses[0].id)).status).toBe(404)
  })

  it(`keeps at most ${MAX_SAVED_ADDRESSES}: the next is refused with 422 and nothing saved, even when two arrive at once`, async () => {
    const have = (await list()).body.addresses.length
    for (let i = have; i < MAX_SAVED_ADDRESSES - 1; i++) expect((await create({ ...rose, label: `Cousin ${i}` })).status).toBe(201)
    // One place left, two saves at once: one is saved, the other refused.
    const both = await Promise.all([create({ ...rose, label: 'Last A' }), create({ ...rose, label: 'Last B' })])
    expect(both.map((r) => r.status).sort()).toEqual([201, 422])
    const refused = await create({ ...rose, label: 'One too many' })
    expect(refused.status).toBe(422)
    expect(refused.body.error.code).toBe('rule_broken')
    expect(refused.body.error.message).toContain(`up to ${MAX_SAVED_ADDRESSES} addresses`)
    expect((await list()).body.addresses).toHaveLength(MAX_SAVED_ADDRESSES)
    // The limit is the shopper's own: another shopper still saves.
    expect((await create({ ...rose, label: 'Mine' }, otherCookie)).status).toBe(201)
  })

  it('is published in the OpenAPI document', async () => {
    const doc = (await t.request('/v1/openapi.json')).body
    expect(Object.keys(doc.paths['/photo-products-addresses'])).toEqual(expect.arrayContaining(['get', 'post']))
    expect(Object.keys(doc.paths['/photo-products-addresses/{id}'])).toEqual(expect.arrayContaining(['put', 'delete']))
  })
})
