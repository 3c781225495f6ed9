import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { colourIds, type ColourId } from '../../app/catalogue/personal-line'
import type { LineContrast } from '../../app/compositor/line-contrast'
import { LineContrastNote } from '../../app/features/designer/PreviewResultDialog'
import { contrastAdvice, TextLineControls } from '../../app/features/designer/TextLineControls'

/** A measurement as line-contrast.ts gives it, with these ratios for the palette's colours (1 for the rest). */
const measured = (ratios: Partial<Record<ColourId, number>>, colour: ColourId = 'snow'): LineContrast => {
  const all = Object.fromEntries(colourIds.map((id) => [id, ratios[id] ?? 1])) as Record<ColourId, number>
  const best = colourIds.reduce((a, b) => (all[b] > all[a] ? b : a))
  return { colour, halo: false, ratio: all[colour], poor: all[colour] < 3, ratios: all, best }
}
const snowy = measured({ snow: 1.05, ink: 14.8, cranberry: 6.9, pine: 7.2, gold: 2.5 })
const dark = measured({ snow: 12.4, ink: 1.2, cranberry: 1.9, pine: 1.3, gold: 5.1 })

describe('the personal line’s contrast warning (decision 058)', () => {
  it('warns about a line that is hard to read and offers the colour that reads best', () => {
    expect(contrastAdvice([snowy], { colour: 'snow', halo: false })).toEqual({ ratio: 1.05, better: 'ink' })
    expect(contrastAdvice([snowy], { colour: 'ink', halo: false })).toBeNull()
    expect(contrastAdvice([dark], { colour: 'snow', halo: false })).toBeNull()
    expect(contrastAdvice([], { colour: 'snow', halo: false })).toBeNull()
  })

  it('says nothing about a line with a halo: its letters are read against the halo', () => {
    expect(contrastAdvice([snowy], { colour: 'snow', halo: true })).toBeNull()
  })

  it('for the same line on both ornaments, offers the colour whose worse side reads best, or none when no colour reads on both', () => {
    const darkGold = measured({ snow: 12.4, ink: 1.2, cranberry: 1.9, pine: 1.3, gold: 3.4 })
    const lightGold = measured({ snow: 1.05, ink: 14.8, cranberry: 6.9, pine: 7.2, gold: 3.2 })
    expect(contrastAdvice([darkGold, lightGold], { colour: 'snow', halo: false })).toEqual({ ratio: 1.05, better: 'gold' })
    expect(contrastAdvice([snowy, dark], { colour: 'snow', halo: false })).toEqual({ ratio: 1.05, better: null })
  })

  it('shows the warning with its buttons beside the field, and nothing without a measurement', () => {
    const text = { left: { line: 'Ava · 2026', typeface: 'lora', colour: 'snow' } } as const
    const props = { text, onChange: () => {}, onProblem: () => {} }
    const warned = renderToStaticMarkup(<TextLineControls {...props} contrast={{ left: snowy }} />)
    expect(warned).toContain('Hard to read on this photo')
    expect(warned).toContain('Use Ink instead')
    expect(warned).toContain('Add a halo')
    expect(warned).toContain('Halo around the letters')
    expect(warned).toContain('A thin ink outline')
    expect(renderToStaticMarkup(<TextLineControls {...props} contrast={{ left: dark }} />)).not.toContain('Hard to read')
    expect(renderToStaticMarkup(<TextLineControls {...props} />)).not.toContain('Hard to read')
    const haloed = renderToStaticMarkup(<TextLineControls {...props} text={{ left: { ...text.left, halo: true } }} contrast={{ left: snowy }} />)
    expect(haloed).not.toContain('Hard to read')
    expect(haloed).toMatch(/role="switch"[^>]*checked=""|checked=""[^>]*role="switch"/)
  })
})

describe('the preview dialog’s word on a line hard to read (decision 058)', () => {
  const render = (contrast: Parameters<typeof LineContrastNote>[0]['contrast']) => renderToStaticMarkup(<LineContrastNote contrast={contrast} />)

  it('says nothing without text, or when every line reads', () => {
    expect(render(null)).toBe('')
    expect(render({ left: dark, right: dark })).toBe('')
  })

  it('names the ornament whose line is hard to read and the colour that reads best there', () => {
    const html = render({ left: dark, right: snowy })
    expect(html).toContain('Your line on the right ornament may be hard to read')
    expect(html).toContain('choose Ink')
    expect(render({ left: snowy, right: snowy })).toContain('on both ornaments')
  })
})
