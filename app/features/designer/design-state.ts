/**
 * The designer's model (issue 32 item 5): everything the shopper's design is and every way it
 * changes, as one reducer with no React and no browser in it. The component reads it and dispatches;
 * the hooks beside it (useDraftSaver, usePreviewSync, useCardFlip) carry it to storage and to the
 * live preview. tests/unit/design-state.test.ts walks its transitions.
 */
import { MAX_ZOOM } from '~/catalogue/ornaments'
import { clampTransform, IDENTITY_TRANSFORM, type PhotoTransform } from '~/compositor/layout'
import { printQuality } from '~/compositor/print-quality'
import { samePersonalText, type PersonalText } from '~/catalogue/personal-line'
import type { DesignTemplates, GeneratePreviewRequest } from '~/contract/designs'
import type { Draft, DraftPhoto } from './draft'

export type DesignTemplate = DesignTemplates['templates'][number]
export type DesignCell = DesignTemplate['cells'][number]
export type BackSide = DesignTemplates['backSides'][number]
export type PreviewSide = 'front' | 'back'

export type DesignState = {
  /** False until the draft (or the picker's chosen photos) has been read on the client. */
  restored: boolean
  photos: Partial<Record<string, DraftPhoto>>
  /** What each photo shows right now, mid-gesture included. */
  transforms: Record<string, PhotoTransform>
  /** Committed transforms per cell, oldest first; Undo steps back through them. */
  history: Record<string, PhotoTransform[]>
  backSideId: string
  selectedCellId: string
  /** The personal line as it will be printed (a line the field refuses never gets here). */
  text: PersonalText | null
  /** The text field holds a line it refuses: no preview until it is fixed. */
  textRefused: boolean
  /**
   * Counts the changes to what is saved (the draft: photos, committed transforms, back side, text).
   * The saver writes the draft whenever it moves; a drag in progress does not move it.
   */
  edits: number
  /** The side the live preview should show. */
  side: PreviewSide
  /** A back side chosen but not yet drawn: the preview turns over to it once it is. */
  showBackWhenDrawn: string | null
  /** The cell whose photo is being chosen in the picker, if any. */
  pickingFor: string | null
}

export type DesignAction =
  | {
      type: 'restore'
      photos: Partial<Record<string, DraftPhoto>>
      transforms: Record<string, PhotoTransform>
      backSideId: string | null
      text?: PersonalText | null
      /** What was restored differs from what is saved (the picker's photos): save it at once. */
      changed?: boolean
    }
  | { type: 'pick'; cellId: string | null }
  | { type: 'choosePhoto'; cellId: string; photo: DraftPhoto }
  | { type: 'move'; cellId: string; transform: PhotoTransform }
  /** Without a transform, commits what the photo shows now (after a slider or wheel settles). */
  | { type: 'commit'; cellId: string; transform?: PhotoTransform }
  | { type: 'undo'; cellId: string }
  /** Back to where the photo started: its smart placement. */
  | { type: 'reset'; cellId: string }
  | { type: 'select'; cellId: string }
  | { type: 'backSide'; backSideId: string }
  | { type: 'backSideDrawn'; backSideId: string }
  | { type: 'showSide'; side: PreviewSide }
  | { type: 'text'; text: PersonalText | null }
  | { type: 'textRefused'; refused: boolean }

/** Where a photo starts in a cell (and where Reset returns it): centred unless told otherwise. */
export type Placement = (cell: DesignCell, photo: DraftPhoto) => PhotoTransform
export const centred: Placement = () => IDENTITY_TRANSFORM

/** Enough to walk back through a long fiddle without growing forever. */
const MAX_HISTORY = 50

const same = (a: PhotoTransform, b: PhotoTransform) =>
  Math.abs(a.x - b.x) < 1e-6 && Math.abs(a.y - b.y) < 1e-6 && Math.abs(a.zoom - b.zoom) < 1e-6 && Math.abs(a.rotation - b.rotation) < 1e-6

export function initialDesign(cells: DesignCell[], backSides: BackSide[]): DesignState {
  return {
    restored: false,
    photos: {},
    transforms: Object.fromEntries(cells.map((c) => [c.id, IDENTITY_TRANSFORM])),
    history: Object.fromEntries(cells.map((c) => [c.id, [IDENTITY_TRANSFORM]])),
    backSideId: backSides[0]?.id ?? '',
    selectedCellId: cells[0]?.id ?? '',
    text: null,
    textRefused: false,
    edits: 0,
    side: 'front',
    showBackWhenDrawn: null,
    pickingFor: null,
  }
}

/** A transform made safe for a cell and photo: it keeps the cell covered (layout.ts). */
export function clampFor(cell: DesignCell, photo: DraftPhoto | undefined, t: PhotoTransform): PhotoTransform {
  return photo ? clampTransform(cell, photo, t) : IDENTITY_TRANSFORM
}

/** The draft as it should be saved: photos, the last committed transforms, the back side, the text. */
export function draftOf(state: DesignState): Draft {
  const photos: Draft['photos'] = {}
  const transforms: Draft['transforms'] = {}
  for (const [cellId, photo] of Object.entries(state.photos)) {
    if (!photo) continue
    photos[cellId] = photo
    const committed = state.history[cellId]?.at(-1)
    if (committed) transforms[cellId] = committed
  }
  return { photos, transforms, backSideId: state.backSideId, ...(state.text ? { text: state.text } : {}) }
}

/** Every photo placed (and the draft read): the design can be previewed once its text is fine too. */
export const allPlaced = (state: DesignState, cells: DesignCell[]) => state.restored && cells.every((c) => state.photos[c.id])
/** A photo placed so small that the server would refuse to print it (below 30 dpi at this zoom). */
export const tooSmallToPrint = (state: DesignState, cells: DesignCell[]) =>
  cells.some((c) => {
    const photo = state.photos[c.id]
    return photo !== undefined && printQuality(c, photo, state.transforms[c.id] ?? IDENTITY_TRANSFORM).grade === 'refused'
  })
export const canPreview = (state: DesignState, cells: DesignCell[]) => allPlaced(state, cells) && !state.textRefused && !tooSmallToPrint(state, cells)

/** The server preview of this design (null until every photo is placed and the text is fine). */
export function previewRequestOf(state: DesignState, cells: DesignCell[], variantId: number, pseudoTemplateId: string): GeneratePreviewRequest | null {
  if (!canPreview(state, cells)) return null
  return {
    variantId,
    pseudoTemplateId,
    backSideId: state.backSideId,
    cells: cells.map((c) => ({ cellId: c.id, photoId: state.photos[c.id]!.id, transform: state.transforms[c.id] ?? IDENTITY_TRANSFORM })),
    ...(state.text ? { text: state.text } : {}),
  }
}

/** What the tray says under the price. */
export function trayHint(state: DesignState, cells: DesignCell[], working: boolean): string {
  if (working) return 'Making your preview…'
  if (state.textRefused) return 'Fix your text to preview'
  if (tooSmallToPrint(state, cells)) return 'A photo is too small to print: zoom out'
  if (allPlaced(state, cells)) return 'Ready to preview'
  const missing = cells.filter((c) => !state.photos[c.id]).length
  return missing === 1 ? 'Add 1 more photo' : `Add ${missing} photos`
}

export function designReducer(cells: DesignCell[], backSides: BackSide[], placement: Placement = centred) {
  const cellOf = (id: string) => cells.find((c) => c.id === id)
  /** A change the shopper sees on the front: the preview turns to it. */
  const front = (state: DesignState): DesignState => (state.side === 'front' ? state : { ...state, side: 'front', showBackWhenDrawn: null })
  const edited = (state: DesignState): DesignState => ({ ...state, edits: state.edits + 1 })

  /** Sets a cell's committed transform (a new history entry unless it is the one on top). */
  const commit = (state: DesignState, cellId: string, transform: PhotoTransform): DesignState => {
    const stack = state.history[cellId] ?? []
    const top = stack.at(-1)
    const moved = { ...state, transforms: { ...state.transforms, [cellId]: transform } }
    if (top && same(top, transform)) return moved
    return edited({ ...moved, history: { ...state.history, [cellId]: [...stack, transform].slice(-MAX_HISTORY) } })
  }

  return (state: DesignState, action: DesignAction): DesignState => {
    switch (action.type) {
      case 'restore': {
        const photos: DesignState['photos'] = {}
        const transforms = { ...state.transforms }
        const history = { ...state.history }
        for (const cell of cells) {
          const photo = action.photos[cell.id]
          if (!photo) continue
          photos[cell.id] = photo
          const kept = action.transforms[cell.id]
          const t = kept ? clampFor(cell, photo, kept) : placement(cell, photo)
          transforms[cell.id] = t
          history[cell.id] = [t]
        }
        const backSideId = backSides.some((b) => b.id === action.backSideId) ? action.backSideId! : state.backSideId
        return {
          ...state,
          restored: true,
          photos,
          transforms,
          history,
          backSideId,
          text: action.text ?? null,
          edits: state.edits + (action.changed ? 1 : 0),
        }
      }
      case 'pick':
        return action.cellId === null || cellOf(action.cellId) ? { ...state, pickingFor: action.cellId } : state
      case 'choosePhoto': {
        const cell = cellOf(action.cellId)
        if (!cell) return state
        const start = placement(cell, action.photo)
        return edited(
          front({
            ...state,
            photos: { ...state.photos, [action.cellId]: action.photo },
            transforms: { ...state.transforms, [action.cellId]: start },
            history: { ...state.history, [action.cellId]: [start] },
            selectedCellId: action.cellId,
            pickingFor: null,
          }),
        )
      }
      case 'move':
        if (!state.photos[action.cellId]) return state
        return front({ ...state, transforms: { ...state.transforms, [action.cellId]: action.transform } })
      case 'commit': {
        const transform = action.transform ?? state.transforms[action.cellId]
        if (!transform || !state.photos[action.cellId]) return state
        return front(commit(state, action.cellId, transform))
      }
      case 'reset': {
        const cell = cellOf(action.cellId)
        const photo = state.photos[action.cellId]
        if (!cell || !photo) return state
        return front(commit(state, action.cellId, placement(cell, photo)))
      }
      case 'undo': {
        const stack = state.history[action.cellId] ?? []
        const current = state.transforms[action.cellId] ?? IDENTITY_TRANSFORM
        const top = stack.at(-1)
        if (!top) return state
        // An uncommitted change is undone first; otherwise step back one committed transform.
        if (!same(top, current)) return front({ ...state, transforms: { ...state.transforms, [action.cellId]: top } })
        if (stack.length < 2) return state
        const next = stack.slice(0, -1)
        return edited(
          front({ ...state, transforms: { ...state.transforms, [action.cellId]: next.at(-1)! }, history: { ...state.history, [action.cellId]: next } }),
        )
      }
      case 'select':
        return cellOf(action.cellId) ? front({ ...state, selectedCellId: action.cellId }) : state
      case 'text':
        // The field says what it holds when it mounts: the same line is not an edit.
        return samePersonalText(state.text, action.text) ? state : edited(front({ ...state, text: action.text }))
      case 'textRefused':
        return state.textRefused === action.refused ? state : { ...state, textRefused: action.refused }
      case 'backSide':
        if (!backSides.some((b) => b.id === action.backSideId)) return state
        // The back already shown: turn to it; a new one turns the preview over once it is drawn.
        if (action.backSideId === state.backSideId) return { ...state, side: 'back', showBackWhenDrawn: null }
        return edited({ ...state, backSideId: action.backSideId, showBackWhenDrawn: action.backSideId })
      case 'backSideDrawn':
        if (state.showBackWhenDrawn !== action.backSideId || state.backSideId !== action.backSideId) return state
        return { ...state, side: 'back', showBackWhenDrawn: null }
      case 'showSide':
        return state.side === action.side ? state : { ...state, side: action.side, showBackWhenDrawn: null }
    }
  }
}

export function canUndo(state: DesignState, cellId: string) {
  const stack = state.history[cellId] ?? []
  const current = state.transforms[cellId]
  return stack.length > 1 || (stack.length === 1 && current !== undefined && !same(stack[0]!, current))
}

/** Keyboard steps on the preview, in template pixels and degrees. */
export const KEY_MOVE = 20
export const KEY_MOVE_FAR = 100
export const KEY_ROTATE = 5
/** How far one press of a zoom key or button zooms. */
export const ZOOM_STEP = 0.1

/** The transform a key press on the preview asks for, or null when the key does nothing there. */
export function keyTransform(key: string, shift: boolean, t: PhotoTransform): PhotoTransform | null {
  const step = shift ? KEY_MOVE_FAR : KEY_MOVE
  const zoomIn = { ...t, zoom: Math.min(MAX_ZOOM, t.zoom + ZOOM_STEP) }
  const zoomOut = { ...t, zoom: Math.max(1, t.zoom - ZOOM_STEP) }
  switch (key) {
    case 'ArrowLeft':
      return { ...t, x: t.x - step }
    case 'ArrowRight':
      return { ...t, x: t.x + step }
    case 'ArrowUp':
      return { ...t, y: t.y - step }
    case 'ArrowDown':
      return { ...t, y: t.y + step }
    case '+':
    case '=':
      return zoomIn
    case '-':
    case '_':
      return zoomOut
    case '[':
      return { ...t, rotation: t.rotation - KEY_ROTATE }
    case ']':
      return { ...t, rotation: t.rotation + KEY_ROTATE }
    default:
      return null
  }
}
