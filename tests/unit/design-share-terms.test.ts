import { describe, expect, it } from 'vitest'
import { noteLength, noteProblem, SHARE_NOTE_MAX, SHARE_TOKEN } from '../../app/catalogue/design-share-terms'
import { designShareNoteRequestSchema } from '../../app/contract/design-shares'

describe('a family member’s note on a shared design', () => {
  it('counts characters as a person does: trimmed, an emoji is one', () => {
    expect(noteLength('  Lovely  ')).toBe(6)
    expect(noteLength('🎄'.repeat(SHARE_NOTE_MAX))).toBe(SHARE_NOTE_MAX)
  })

  it.each([
    ['', 'Write a note, or delete it'],
    [' \u00a0 ', 'Write a note, or delete it'],
    ['x'.repeat(SHARE_NOTE_MAX + 1), 'A note is at most 140 characters'],
    ['two\nlines', 'A note is one line of text: remove line breaks and tabs'],
    ['esc\u001b[31m', 'A note is one line of text: remove line breaks and tabs'],
    ['para\u2029graph', 'A note is one line of text: remove line breaks and tabs'],
  ])('refuses %j', (note, message) => {
    expect(noteProblem(note)).toBe(message)
  })

  it('takes 140 characters, and the contract answers it trimmed (the page and the API agree)', () => {
    expect(noteProblem(` ${'é'.repeat(SHARE_NOTE_MAX)} `)).toBeNull()
    expect(designShareNoteRequestSchema.parse({ note: '  Perfect  ' })).toEqual({ note: 'Perfect' })
    expect(designShareNoteRequestSchema.safeParse({ note: 'x'.repeat(SHARE_NOTE_MAX + 1) }).success).toBe(false)
  })

  it('recognises a share token: 22 base64url characters', () => {
    expect(SHARE_TOKEN.test(Buffer.alloc(16, 255).toString('base64url'))).toBe(true)
    expect(SHARE_TOKEN.test('short')).toBe(false)
    expect(SHARE_TOKEN.test('A'.repeat(21) + '=')).toBe(false)
  })
})
