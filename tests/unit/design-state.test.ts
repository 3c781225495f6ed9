import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { backSides as catalogueBackSides, MAX_ZOOM, photoCells, templateForVariant } from '~/catalogue/ornaments'
import { smartTransform } from '~/compositor/focal-placement'
import { clampTransform, IDENTITY_TRANSFORM, type PhotoTransform } from '~/compositor/layout'
import type { SavedDesign } from '~/contract/saved-designs'
import {
  canPreview,
  canUndo,
  designReducer,
  draftOf,
  initialDesign,
  keyTransform,
  KEY_MOVE,
  KEY_MOVE_FAR,
  previewRequestOf,
  trayHint,
  type BackSide,
  type DesignAction,
  type DesignCell,
  type DesignState,
  type Placement,
} from '~/features/designer/design-state'
import type { Draft, DraftPhoto } from '~/features/designer/draft'
import { draftForShape, planRestore } from '~/features/designer/restore-plan'
import type { ChosenPhoto } from '~/lib/photo-conversion'

/** Issue 32 item 5: the designer's model, its transitions one by one and under random sequences. */
const STAR = 72965
const TREE = 72963
const cells: DesignCell[] = photoCells(templateForVariant(STAR)!)
const backSides: BackSide[] = catalogueBackSides.star
const [left, right] = [cells[0]!, cells[1]!]

const photo = (n: number, width = 1600, height = 1200): DraftPhoto => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  url: `/v1/media/photos/${n}/smartphone.jpg`,
  width,
  height,
})
/** A placement that is not the centre, so the tests see where it is used. */
const smart: Placement = (cell, p) => clampTransform(cell, p, { x: 40, y: -30, zoom: 1.5, rotation: 0 })
const reducer = designReducer(cells, backSides, smart)
const run = (...actions: DesignAction[]) => actions.reduce(reducer, initialDesign(cells, backSides))
const restored = (...actions: DesignAction[]) => run({ type: 'restore', photos: {}, transforms: {}, backSideId: null }, ...actions)
const both = (): DesignAction[] => [
  { type: 'choosePhoto', cellId: left.id, photo: photo(1) },
  { type: 'choosePhoto', cellId: right.id, photo: photo(2) },
]
const moved = (t: PhotoTransform, dx: number): PhotoTransform => ({ ...t, x: t.x + dx })

describe('the design starts', () => {
  it('empty, unread, unedited, showing the front and the first back', () => {
    const s = initialDesign(cells, backSides)
    expect(s).toMatchObject({ restored: false, edits: 0, side: 'front', backSideId: backSides[0]!.id, selectedCellId: left.id, text: null })
    expect(canPreview(s, cells)).toBe(false)
  })

  it('from a draft: its photos and transforms (clamped), its back; not an edit', () => {
    const far = { x: 1e5, y: 0, zoom: 1, rotation: 0 }
    const s = run({ type: 'restore', photos: { [left.id]: photo(1) }, transforms: { [left.id]: far }, backSideId: backSides[3]!.id })
    expect(s.restored).toBe(true)
    expect(s.edits).toBe(0)
    expect(s.transforms[left.id]).toEqual(clampTransform(left, photo(1), far))
    expect(s.history[left.id]).toEqual([s.transforms[left.id]])
    expect(s.backSideId).toBe(backSides[3]!.id)
  })

  it('a restored photo without a kept transform starts at its smart placement', () => {
    const s = run({ type: 'restore', photos: { [left.id]: photo(1) }, transforms: {}, backSideId: null })
    expect(s.transforms[left.id]).toEqual(smart(left, photo(1)))
  })

  it('an unknown back side keeps the first; photos for cells the shape lacks are dropped', () => {
    const s = run({ type: 'restore', photos: { 'tree-left': photo(1) }, transforms: {}, backSideId: 'nope' })
    expect(s.backSideId).toBe(backSides[0]!.id)
    expect(s.photos).toEqual({})
  })

  it("the picker's photos are restored as a change, so they are saved at once", () => {
    expect(run({ type: 'restore', photos: {}, transforms: {}, backSideId: null, changed: true }).edits).toBe(1)
  })
})

describe('choosing photos', () => {
  it('opens and closes the picker for a cell; an unknown cell opens nothing', () => {
    expect(restored({ type: 'pick', cellId: right.id }).pickingFor).toBe(right.id)
    expect(restored({ type: 'pick', cellId: right.id }, { type: 'pick', cellId: null }).pickingFor).toBeNull()
    expect(restored({ type: 'pick', cellId: 'nope' }).pickingFor).toBeNull()
  })

  it('places the photo smartly, selects its cell, closes the picker, turns to the front, counts an edit', () => {
    const s = restored({ type: 'showSide', side: 'back' }, { type: 'pick', cellId: right.id }, { type: 'choosePhoto', cellId: right.id, photo: photo(2) })
    expect(s).toMatchObject({ selectedCellId: right.id, pickingFor: null, side: 'front', edits: 1 })
    expect(s.transforms[right.id]).toEqual(smart(right, photo(2)))
    expect(s.history[right.id]).toEqual([smart(right, photo(2))])
  })

  it('a photo for an unknown cell changes nothing', () => {
    const s = restored()
    expect(reducer(s, { type: 'choosePhoto', cellId: 'nope', photo: photo(1) })).toBe(s)
  })

  it('the tray says what is missing, then that the design is ready', () => {
    expect(trayHint(restored(), cells, false)).toBe('Add 2 photos')
    expect(trayHint(restored(both()[0]!), cells, false)).toBe('Add 1 more photo')
    const ready = restored(...both())
    expect(trayHint(ready, cells, false)).toBe('Ready to preview')
    expect(trayHint(ready, cells, true)).toBe('Making your preview…')
    expect(canPreview(ready, cells)).toBe(true)
  })
})

describe('adjusting and undoing', () => {
  const start = restored(...both())
  const t0 = start.transforms[left.id]!

  it('a move shows at once but is not an edit until committed', () => {
    const s = reducer(start, { type: 'move', cellId: left.id, transform: moved(t0, 10) })
    expect(s.transforms[left.id]).toEqual(moved(t0, 10))
    expect(s.edits).toBe(start.edits)
    expect(draftOf(s).transforms[left.id]).toEqual(t0)
    const c = reducer(s, { type: 'commit', cellId: left.id })
    expect(c.edits).toBe(start.edits + 1)
    expect(draftOf(c).transforms[left.id]).toEqual(moved(t0, 10))
  })

  it('committing what is already on top of the history is not an edit', () => {
    expect(reducer(start, { type: 'commit', cellId: left.id, transform: t0 }).edits).toBe(start.edits)
  })

  it('a move or commit on an empty cell changes nothing', () => {
    const s = restored()
    expect(reducer(s, { type: 'move', cellId: left.id, transform: t0 })).toBe(s)
    expect(reducer(s, { type: 'commit', cellId: left.id, transform: t0 })).toBe(s)
  })

  it('undo drops an uncommitted move first (no edit), then steps back one commit (an edit)', () => {
    const committed = reducer(start, { type: 'commit', cellId: left.id, transform: moved(t0, 10) })
    const dragging = reducer(committed, { type: 'move', cellId: left.id, transform: moved(t0, 50) })
    const once = reducer(dragging, { type: 'undo', cellId: left.id })
    expect(once.transforms[left.id]).toEqual(moved(t0, 10))
    expect(once.edits).toBe(committed.edits)
    const twice = reducer(once, { type: 'undo', cellId: left.id })
    expect(twice.transforms[left.id]).toEqual(t0)
    expect(twice.edits).toBe(committed.edits + 1)
    expect(canUndo(twice, left.id)).toBe(false)
    expect(reducer(twice, { type: 'undo', cellId: left.id })).toBe(twice)
  })

  it('reset returns to the smart placement, and can itself be undone', () => {
    const away = reducer(start, { type: 'commit', cellId: left.id, transform: { x: 0, y: 0, zoom: 2, rotation: 30 } })
    const reset = reducer(away, { type: 'reset', cellId: left.id })
    expect(reset.transforms[left.id]).toEqual(smart(left, photo(1)))
    expect(reducer(reset, { type: 'undo', cellId: left.id }).transforms[left.id]).toEqual(away.transforms[left.id])
  })

  it('keeps at most 50 steps of history', () => {
    let s = start
    for (let i = 1; i <= 80; i++) s = reducer(s, { type: 'commit', cellId: left.id, transform: moved(t0, i) })
    expect(s.history[left.id]).toHaveLength(50)
    expect(s.history[left.id]!.at(-1)).toEqual(moved(t0, 80))
  })

  it('keys move, zoom and rotate the selected photo; other keys do nothing', () => {
    const t = { x: 0, y: 0, zoom: 1, rotation: 0 }
    expect(keyTransform('ArrowLeft', false, t)).toEqual({ ...t, x: -KEY_MOVE })
    expect(keyTransform('ArrowDown', true, t)).toEqual({ ...t, y: KEY_MOVE_FAR })
    expect(keyTransform('-', false, t)!.zoom).toBe(1)
    expect(keyTransform('+', false, { ...t, zoom: MAX_ZOOM })!.zoom).toBe(MAX_ZOOM)
    expect(keyTransform(']', false, t)!.rotation).toBe(5)
    expect(keyTransform('a', false, t)).toBeNull()
  })
})

describe('the back side and the side shown', () => {
  const start = restored(...both())
  const other = backSides[4]!.id

  it('a new back is an edit; the preview turns over once it is drawn, not before', () => {
    const chosen = reducer(start, { type: 'backSide', backSideId: other })
    expect(chosen).toMatchObject({ backSideId: other, side: 'front', showBackWhenDrawn: other, edits: start.edits + 1 })
    expect(reducer(chosen, { type: 'backSideDrawn', backSideId: backSides[0]!.id }).side).toBe('front')
    expect(reducer(chosen, { type: 'backSideDrawn', backSideId: other })).toMatchObject({ side: 'back', showBackWhenDrawn: null })
  })

  it('a change on the front before the back is drawn keeps the front', () => {
    const chosen = reducer(start, { type: 'backSide', backSideId: other })
    const selected = reducer(chosen, { type: 'select', cellId: right.id })
    const turned = reducer(reducer(selected, { type: 'showSide', side: 'back' }), { type: 'select', cellId: left.id })
    expect(turned.side).toBe('front')
    expect(reducer(turned, { type: 'backSideDrawn', backSideId: other }).side).toBe('front')
  })

  it('choosing the back already shown turns to it at once; an unknown back changes nothing', () => {
    expect(reducer(start, { type: 'backSide', backSideId: start.backSideId })).toMatchObject({ side: 'back', edits: start.edits })
    expect(reducer(start, { type: 'backSide', backSideId: 'nope' })).toBe(start)
  })
})

describe('the personal line', () => {
  const start = restored(...both())
  const text = { left: { line: 'Ava · 2026', typeface: 'lora' as const, colour: 'ink' as const } }

  it('a new line is an edit; the field repeating the same line is not', () => {
    const s = reducer(start, { type: 'text', text })
    expect(s.edits).toBe(start.edits + 1)
    expect(reducer(s, { type: 'text', text: { left: { ...text.left } } })).toBe(s)
    expect(draftOf(s).text).toEqual(text)
  })

  it('a refused line blocks the preview until it is fixed', () => {
    const refused = reducer(start, { type: 'textRefused', refused: true })
    expect(canPreview(refused, cells)).toBe(false)
    expect(trayHint(refused, cells, false)).toBe('Fix your text to preview')
    expect(previewRequestOf(refused, cells, STAR, 'star')).toBeNull()
    expect(canPreview(reducer(refused, { type: 'textRefused', refused: false }), cells)).toBe(true)
  })

  it('a photo too small to print at its zoom blocks the preview; a larger one lifts it', () => {
    const tiny = reducer(reducer(start, { type: 'choosePhoto', cellId: left.id, photo: photo(7, 120, 90) }), {
      type: 'commit',
      cellId: left.id,
      transform: { x: 0, y: 0, zoom: MAX_ZOOM, rotation: 0 },
    })
    expect(canPreview(tiny, cells)).toBe(false)
    expect(trayHint(tiny, cells, false)).toBe('A photo is too small to print: zoom out')
    expect(previewRequestOf(tiny, cells, STAR, 'star')).toBeNull()
    const big = reducer(tiny, { type: 'choosePhoto', cellId: left.id, photo: photo(8) })
    expect(canPreview(big, cells)).toBe(true)
  })

  it('the preview request carries every cell, the live transforms, the back and the text', () => {
    const s = reducer(reducer(start, { type: 'text', text }), { type: 'move', cellId: left.id, transform: moved(start.transforms[left.id]!, 5) })
    expect(previewRequestOf(s, cells, STAR, 'star')).toEqual({
      variantId: STAR,
      pseudoTemplateId: 'star',
      backSideId: s.backSideId,
      cells: cells.map((c) => ({ cellId: c.id, photoId: s.photos[c.id]!.id, transform: s.transforms[c.id] })),
      text,
    })
  })
})

describe('under any sequence of actions', () => {
  const transform = fc.record({
    x: fc.double({ min: -2000, max: 2000, noNaN: true }),
    y: fc.double({ min: -2000, max: 2000, noNaN: true }),
    zoom: fc.double({ min: 1, max: MAX_ZOOM, noNaN: true }),
    rotation: fc.double({ min: -180, max: 180, noNaN: true }),
  })
  const cellId = fc.constantFrom(left.id, right.id, 'nope')
  const action: fc.Arbitrary<DesignAction> = fc.oneof(
    fc.record({ type: fc.constant('choosePhoto' as const), cellId, photo: fc.integer({ min: 1, max: 5 }).map((n) => photo(n)) }),
    fc.record({ type: fc.constant('move' as const), cellId, transform }),
    fc.record({ type: fc.constant('commit' as const), cellId, transform: fc.option(transform, { nil: undefined }) }),
    fc.record({ type: fc.constant('undo' as const), cellId }),
    fc.record({ type: fc.constant('reset' as const), cellId }),
    fc.record({ type: fc.constant('select' as const), cellId }),
    fc.record({ type: fc.constant('backSide' as const), backSideId: fc.constantFrom(...backSides.map((b) => b.id), 'nope') }),
    fc.record({ type: fc.constant('backSideDrawn' as const), backSideId: fc.constantFrom(...backSides.map((b) => b.id)) }),
    fc.record({ type: fc.constant('showSide' as const), side: fc.constantFrom('front' as const, 'back' as const) }),
  )

  it('edits never go back, the history is never empty nor over 50, the draft holds the committed transforms, the selection is a cell', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 60 }), (actions) => {
        let s: DesignState = restored()
        for (const a of actions) {
          const next = reducer(s, a)
          expect(next.edits).toBeGreaterThanOrEqual(s.edits)
          s = next
          for (const c of cells) {
            expect(s.history[c.id]!.length).toBeGreaterThanOrEqual(1)
            expect(s.history[c.id]!.length).toBeLessThanOrEqual(50)
            if (s.photos[c.id]) expect(draftOf(s).transforms[c.id]).toEqual(s.history[c.id]!.at(-1))
          }
          expect(cells.map((c) => c.id)).toContain(s.selectedCellId)
          expect(backSides.map((b) => b.id)).toContain(s.backSideId)
        }
        // Undo, repeated, always comes back to where each photo started.
        for (const c of cells) {
          const first = s.history[c.id]![0]!
          for (let i = 0; i < 60; i++) s = reducer(s, { type: 'undo', cellId: c.id })
          expect(s.transforms[c.id]).toEqual(first)
          expect(canUndo(s, c.id)).toBe(false)
        }
      }),
    )
  })
})

describe('where the designer starts (restore-plan.ts)', () => {
  const ME = '00000000-0000-4000-8000-000000000001'
  const chosenPhoto = (n: number): ChosenPhoto => ({ id: photo(n).id, url: `/v1/media/photos/${n}/small.jpg`, width: 1600, height: 1200 }) as ChosenPhoto
  const device: Draft = {
    photos: { [left.id]: photo(1) },
    transforms: { [left.id]: { x: 12, y: 0, zoom: 1.3, rotation: 0 } },
    backSideId: backSides[2]!.id,
    editedAt: '2026-11-22T12:00:00.000Z',
    owner: null,
  }

  it('the device draft when nothing was chosen; not a change', () => {
    const plan = planRestore({ cells, device, account: null, chosen: [], preferChosen: false })
    expect(plan).toMatchObject({ push: false, drop: false })
    expect(plan.action).toMatchObject({ photos: device.photos, transforms: device.transforms, backSideId: device.backSideId })
    expect(plan.action.changed).toBeUndefined()
  })

  it('arriving from the picker: its photos fill the cells in order, keeping a placement whose photo stayed, and it is a change', () => {
    const plan = planRestore({ cells, device, account: null, chosen: [chosenPhoto(1), chosenPhoto(3)], preferChosen: true })
    expect(Object.values(plan.action.photos).map((p) => p!.id)).toEqual([photo(1).id, photo(3).id])
    expect(plan.action.photos[left.id]!.url).toMatch(/smartphone/)
    expect(plan.action.transforms).toEqual({ [left.id]: device.transforms[left.id] })
    expect(plan.action).toMatchObject({ changed: true, backSideId: device.backSideId })
  })

  it('photos chosen earlier do not replace a draft that has photos unless the shopper came from the picker', () => {
    const plan = planRestore({ cells, device, account: null, chosen: [chosenPhoto(3)], preferChosen: false })
    expect(plan.action.photos).toEqual(device.photos)
  })

  it("signed in: a newer device draft is pushed to the account; the account's is taken otherwise", () => {
    const saved: SavedDesign = {
      id: '00000000-0000-4000-8000-0000000000d1',
      variantId: STAR,
      shapeName: 'Star',
      photos: { [right.id]: { ...photo(9), focalPoint: null, thumbnailUrl: '/v1/media/photos/9/small.jpg' } },
      transforms: {},
      backSideId: backSides[5]!.id,
      createdAt: '2026-11-20T08:00:00.000Z',
      updatedAt: '2026-11-21T08:00:00.000Z',
    }
    const newer = planRestore({ cells, device, account: { userId: ME, saved }, chosen: [], preferChosen: false })
    expect(newer.push).toBe(true)
    expect(newer.action.photos).toEqual(device.photos)
    const older = planRestore({
      cells,
      device: { ...device, editedAt: '2026-11-01T00:00:00.000Z' },
      account: { userId: ME, saved },
      chosen: [],
      preferChosen: false,
    })
    expect(older.push).toBe(false)
    expect(Object.keys(older.action.photos)).toEqual([right.id])
    expect(older.action.backSideId).toBe(saved.backSideId)
  })

  it('another shape: the photos travel in order with the same back design; nothing to carry, no draft', () => {
    const s = restored(...both(), { type: 'backSide', backSideId: backSides[4]!.id })
    const draft = draftForShape(s, cells, backSides, TREE, ME)!
    const treeCells = photoCells(templateForVariant(TREE)!)
    expect(Object.keys(draft.photos)).toEqual(treeCells.map((c) => c.id))
    expect(draft.transforms).toEqual({})
    expect(catalogueBackSides.tree.find((b) => b.id === draft.backSideId)?.backsideId).toBe(backSides[4]!.backsideId)
    expect(draft).toMatchObject({ owner: ME, synced: false })
    expect(draftForShape(restored(), cells, backSides, TREE, ME)).toBeNull()
    expect(draftForShape(s, cells, backSides, 1, ME)).toBeNull()
  })
})

it('the identity placement is the default', () => {
  const s = designReducer(cells, backSides)(restored(), { type: 'choosePhoto', cellId: left.id, photo: photo(1) })
  expect(s.transforms[left.id]).toEqual(IDENTITY_TRANSFORM)
})

describe('with smart placement (decision 059)', () => {
  const smartReducer = designReducer(cells, backSides, smartTransform)
  const start = [{ type: 'restore', photos: {}, transforms: {}, backSideId: null }] satisfies DesignAction[]
  const offCentre = { ...photo(3, 1800, 2400), focalPoint: { x: 0.72, y: 0.81 } }

  it('a photo with its subject off-centre starts moved (and zoomed if need be) towards the cell’s focus; Reset comes back there', () => {
    let s = [...start, { type: 'choosePhoto', cellId: left.id, photo: offCentre } as DesignAction].reduce(smartReducer, initialDesign(cells, backSides))
    const placed = s.transforms[left.id]!
    expect(placed).not.toEqual(IDENTITY_TRANSFORM)
    expect(placed).toEqual(clampTransform(left, offCentre, placed))
    s = smartReducer(s, { type: 'commit', cellId: left.id, transform: IDENTITY_TRANSFORM })
    expect(smartReducer(s, { type: 'reset', cellId: left.id }).transforms[left.id]).toEqual(placed)
  })

  it('a photo without a focal point (stored before) starts centred', () => {
    const s = [...start, { type: 'choosePhoto', cellId: left.id, photo: { ...photo(4), focalPoint: null } } as DesignAction].reduce(
      smartReducer,
      initialDesign(cells, backSides),
    )
    expect(s.transforms[left.id]).toEqual(IDENTITY_TRANSFORM)
  })
})
