import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { draftKey, readDraft } from '../../app/features/designer/draft'

/** The device's storage, as a page has it: strings by key. */
class MemoryStorage {
  private items = new Map<string, string>()
  getItem(key: string) {
    return this.items.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.items.set(key, value)
  }
  removeItem(key: string) {
    this.items.delete(key)
  }
}

const VARIANT = 72965
const ava = { line: 'Ava · 2026', typeface: 'lora', colour: 'gold' }
const leo = { line: 'Leo', typeface: 'montserrat', colour: 'pine' }
const keep = (text: unknown) =>
  localStorage.setItem(draftKey(VARIANT), JSON.stringify({ photos: {}, transforms: {}, backSideId: null, editedAt: '2026-11-26T10:00:00.000Z', text }))

describe('a device draft’s personal lines', () => {
  beforeEach(() => {
    ;(globalThis as { localStorage?: unknown }).localStorage = new MemoryStorage()
  })
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage
  })

  it('keeps a line on each ornament, or on one', () => {
    keep({ left: ava, right: leo })
    expect(readDraft(VARIANT)?.text).toEqual({ left: ava, right: leo })
    keep({ right: leo })
    expect(readDraft(VARIANT)?.text).toEqual({ right: leo })
  })

  it('keeps each line’s halo, and reads a line kept before halos as one without', () => {
    keep({ left: { ...ava, halo: true }, right: { ...leo, halo: false } })
    expect(readDraft(VARIANT)?.text).toEqual({ left: { ...ava, halo: true }, right: leo })
    keep({ left: ava })
    expect(readDraft(VARIANT)?.text?.left?.halo).toBeUndefined()
  })

  it('reads a draft kept before each ornament had its own line as that line on both', () => {
    keep({ line: '  Ava · 2026 ', typeface: 'lora', colour: 'gold' })
    expect(readDraft(VARIANT)?.text).toEqual({ left: ava, right: ava })
  })

  it('drops a line the rule refuses and keeps the other ornament’s, and keeps the draft', () => {
    keep({ left: { ...ava, line: 'Ava 🎄' }, right: leo })
    const draft = readDraft(VARIANT)
    expect(draft?.text).toEqual({ right: leo })
    keep({ left: { ...ava, line: '' } })
    expect(readDraft(VARIANT)).not.toBeNull()
    expect(readDraft(VARIANT)?.text).toBeUndefined()
    keep({})
    expect(readDraft(VARIANT)?.text).toBeUndefined()
  })

  it('drops a draft whose text is not text at all', () => {
    keep({ left: { ...ava, typeface: 'comic-sans' } })
    expect(readDraft(VARIANT)).toBeNull()
    expect(localStorage.getItem(draftKey(VARIANT))).toBeNull()
  })
})
