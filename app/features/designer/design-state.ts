import { clampTransform, IDENTITY_TRANSFORM, type PhotoTransform } from '~/compositor/layout'
import type { PersonalText } from '~/catalogue/personal-line'
import type { DesignTemplates } from '~/contract/designs'
import type { Draft, DraftPhoto } from './draft'

export type DesignTemplate = DesignTemplates['templates'][number]
export type DesignCell = DesignTemplate['cells'][number]
export type BackSide = DesignTemplates['backSides'][number]

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
}

export type DesignAction =
  | {
      type: 'restore'
      photos: Partial<Record<string, DraftPhoto>>
      transforms: Record<string, PhotoTransform>
      backSideId: string | null
      text?: PersonalText | null
    }
  | { type: 'choosePhoto'; cellId: string; photo: DraftPhoto }
  | { type: 'move'; cellId: string; transform: PhotoTransform }
  /** Without a transform, commits what the photo shows now (after a slider or wheel settles). */
  | { type: 'commit'; cellId: string; transform?: PhotoTransform }
  | { type: 'undo'; cellId: string }
  | { type: 'select'; cellId: string }
  | { type: 'backSide'; backSideId: string }
  | { type: 'text'; text: PersonalText | null }

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
  }
}

/** A transform made safe for a cell and photo: it keeps the cell covered (layout.ts). */
export function clampFor(cell: DesignCell, photo: DraftPhoto | undefined, t: PhotoTransform): PhotoTransform {
  return photo ? clampTransform(cell, photo, t) : IDENTITY_TRANSFORM
}

/** The draft as it should be saved: photos, the last committed transforms, the back side. */
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

export function designReducer(cells: DesignCell[], backSides: BackSide[]) {
  const cellOf = (id: string) => cells.find((c) => c.id === id)
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
          const t = clampFor(cell, photo, action.transforms[cell.id] ?? IDENTITY_TRANSFORM)
          transforms[cell.id] = t
          history[cell.id] = [t]
        }
        const backSideId = backSides.some((b) => b.id === action.backSideId) ? action.backSideId! : state.backSideId
        return { ...state, restored: true, photos, transforms, history, backSideId, text: action.text ?? null }
      }
      case 'choosePhoto':
        if (!cellOf(action.cellId)) return state
        return {
          ...state,
          photos: { ...state.photos, [action.cellId]: action.photo },
          transforms: { ...state.transforms, [action.cellId]: IDENTITY_TRANSFORM },
          history: { ...state.history, [action.cellId]: [IDENTITY_TRANSFORM] },
          selectedCellId: action.cellId,
        }
      case 'move':
        return { ...state, transforms: { ...state.transforms, [action.cellId]: action.transform } }
      case 'commit': {
        const transform = action.transform ?? state.transforms[action.cellId]
        if (!transform) return state
        const stack = state.history[action.cellId] ?? []
        const top = stack.at(-1)
        const next = top && same(top, transform) ? stack : [...stack, transform].slice(-MAX_HISTORY)
        return {
          ...state,
          transforms: { ...state.transforms, [action.cellId]: transform },
          history: { ...state.history, [action.cellId]: next },
        }
      }
      case 'undo': {
        const stack = state.history[action.cellId] ?? []
        const current = state.transforms[action.cellId] ?? IDENTITY_TRANSFORM
        const top = stack.at(-1)
        if (!top) return state
        // An uncommitted change is undone first; otherwise step back one committed transform.
        if (!same(top, current)) return { ...state, transforms: { ...state.transforms, [action.cellId]: top } }
        if (stack.length < 2) return state
        const next = stack.slice(0, -1)
        return { ...state, transforms: { ...state.transforms, [action.cellId]: next.at(-1)! }, history: { ...state.history, [action.cellId]: next } }
      }
      case 'select':
        return cellOf(action.cellId) ? { ...state, selectedCellId: action.cellId } : state
      case 'text':
        return { ...state, text: action.text }
      case 'backSide':
        return backSides.some((b) => b.id === action.backSideId) ? { ...state, backSideId: action.backSideId } : state
    }
  }
}

export function canUndo(state: DesignState, cellId: string) {
  const stack = state.history[cellId] ?? []
  const current = state.transforms[cellId]
  return stack.length > 1 || (stack.length === 1 && current !== undefined && !same(stack[0]!, current))
}
