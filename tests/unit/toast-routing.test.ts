import { describe, expect, it } from 'vitest'
import { notify, showNotesIn, startDelivery, type Note } from '../../app/lib/toast'

/** A note raised while a modal dialog is open goes into that dialog, not beneath it. */
describe('where a note is shown', () => {
  it('the page’s toaster without a dialog; the innermost open dialog while one is open; the page again once it closes', () => {
    const page: Note[] = []
    startDelivery((note) => page.push(note))
    notify.success('before')
    const outer: Note[] = []
    const inner: Note[] = []
    const closeOuter = showNotesIn((note) => outer.push(note))
    notify.error('in the outer dialog')
    const closeInner = showNotesIn((note) => inner.push(note))
    const retry = { label: 'Retry', onClick: () => {} }
    notify.error('in the inner dialog', retry)
    closeInner()
    notify.success('outer again')
    closeOuter()
    notify.success('after')
    expect(page.map((n) => n.message)).toEqual(['before', 'after'])
    expect(outer.map((n) => n.message)).toEqual(['in the outer dialog', 'outer again'])
    expect(inner).toEqual([{ kind: 'error', message: 'in the inner dialog', action: retry }])
  })
})
