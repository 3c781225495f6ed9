import { describe, expect, it } from 'vitest'
import type { SavedDesign } from '~/contract/saved-designs'
import type { Draft } from '~/features/designer/draft'
import { draftOfSaved, reconcile, saveRequestOf } from '~/features/designer/draft-merge'

const ME = '00000000-0000-4000-8000-000000000001'
const SOMEONE_ELSE = '00000000-0000-4000-8000-000000000002'
const PHOTO = '00000000-0000-4000-8000-00000000aaaa'
const OTHER_PHOTO = '00000000-0000-4000-8000-00000000bbbb'

function localDraft(overrides: Partial<Draft> = {}): Draft {
  return {
    photos: { 'star-left': { id: PHOTO, url: `/v1/media/photos/${PHOTO}/smartphone.jpg`, width: 800, height: 600 } },
    transforms: { 'star-left': { x: 5, y: 0, zoom: 1.2, rotation: 0 } },
    backSideId: '72965-3',
    editedAt: '2026-11-22T12:00:00.000Z',
    ...overrides,
  }
}

function saved(updatedAt: string): SavedDesign {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    variantId: 72965,
    shapeName: 'Star',
    photos: {
      'star-right': {
        id: OTHER_PHOTO,
        url: `/v1/media/photos/${OTHER_PHOTO}/smartphone.jpg`,
        thumbnailUrl: `/v1/media/photos/${OTHER_PHOTO}/small.jpg`,
        width: 640,
        height: 480,
        focalPoint: { x: 0.3, y: 0.4 },
      },
    },
    transforms: {},
    backSideId: '72965-13',
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt,
  }
}

const EARLIER = '2026-11-22T11:00:00.000Z'
const LATER = '2026-11-22T13:00:00.000Z'

describe('a device draft meeting the account’s design', () => {
  it('saves a draft made signed out to an account that has none for the shape', () => {
    const local = localDraft({ owner: null })
    expect(reconcile(ME, local, undefined)).toEqual({ draft: local, push: true, drop: false })
  })

  it('keeps the later edit when both exist', () => {
    const local = localDraft({ owner: null })
    expect(reconcile(ME, local, saved(EARLIER))).toEqual({ draft: local, push: true, drop: false })
    expect(reconcile(ME, local, saved(LATER))).toEqual({ draft: draftOfSaved(saved(LATER), ME), push: false, drop: false })
  })

  it('lets the account win over a draft kept before edits were timed', () => {
    const legacy = localDraft({ editedAt: undefined })
    expect(reconcile(ME, legacy, saved(EARLIER)).push).toBe(false)
    expect(reconcile(ME, legacy, undefined)).toEqual({ draft: legacy, push: true, drop: false })
  })

  it('forgets a draft this device saved once the account no longer has it (deleted elsewhere)', () => {
    expect(reconcile(ME, localDraft({ owner: ME, synced: true }), undefined)).toEqual({ draft: null, push: false, drop: true })
  })

  it('resumes the account’s newer copy over this device’s saved one', () => {
    const result = reconcile(ME, localDraft({ owner: ME, synced: true }), saved(LATER))
    expect(result).toEqual({ draft: draftOfSaved(saved(LATER), ME), push: false, drop: false })
    expect(result.draft?.photos['star-right']).toEqual({
      id: OTHER_PHOTO,
      url: `/v1/media/photos/${OTHER_PHOTO}/smartphone.jpg`,
      width: 640,
      height: 480,
      focalPoint: { x: 0.3, y: 0.4 },
    })
  })

  it('never takes a draft another shopper made on this device', () => {
    const theirs = localDraft({ owner: SOMEONE_ELSE })
    expect(reconcile(ME, theirs, undefined)).toEqual({ draft: null, push: false, drop: false })
    expect(reconcile(ME, theirs, saved(EARLIER)).draft?.backSideId).toBe('72965-13')
  })

  it('does not save a draft without photos', () => {
    const empty = localDraft({ photos: {}, transforms: {}, owner: null })
    expect(reconcile(ME, empty, undefined)).toEqual({ draft: empty, push: false, drop: false })
  })

  it('sends photo ids only, never the URLs the device kept', () => {
    expect(saveRequestOf(localDraft())).toEqual({
      photos: { 'star-left': PHOTO },
      transforms: { 'star-left': { x: 5, y: 0, zoom: 1.2, rotation: 0 } },
      backSideId: '72965-3',
      text: null,
      editedAt: '2026-11-22T12:00:00.000Z',
    })
  })

  it('carries each ornament’s line both ways, and a draft without one clears the account’s', () => {
    const text = { left: { line: 'Ava · 2026', typeface: 'lora', colour: 'gold' }, right: { line: 'Leo', typeface: 'montserrat', colour: 'ink' } } as const
    expect(saveRequestOf(localDraft({ text })).text).toEqual(text)
    expect(draftOfSaved({ ...saved('2026-11-23T12:00:00.000Z'), text }, ME).text).toEqual(text)
    expect(draftOfSaved(saved('2026-11-23T12:00:00.000Z'), ME).text).toBeUndefined()
  })
})
