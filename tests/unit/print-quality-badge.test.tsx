import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import type { PhotoTransform } from '../../app/compositor/layout'
import { PhotoSlots } from '../../app/features/designer/PhotoSlots'
import { PreviewPrintQuality, PrintQualityBadge, PrintQualityStageBadges } from '../../app/features/designer/PrintQualityBadge'

/** Issue 32, item 3: the graded print quality under each photo slot, over the live preview, and in the preview dialog. */
const star = pseudoTemplates.star
const cells = star.cells.filter((c) => c.type === 'Image')
const names = ['Left ornament', 'Right ornament']
const photo = (width: number, height: number) => ({ id: '00000000-0000-4000-8000-000000000001', url: '/media/photos/x/smartphone.jpg', width, height })
const zoomed = (zoom: number): PhotoTransform => ({ x: 0, y: 0, zoom, rotation: 0 })

function slots(
  zooms: [number, number],
  sizes: [number, number][] = [
    [1600, 1200],
    [1600, 1200],
  ],
) {
  return renderToStaticMarkup(
    <PhotoSlots
      cells={cells}
      slotName={(cell) => names[cells.indexOf(cell)]!}
      photos={{ 'star-left': photo(...sizes[0]!), 'star-right': photo(...sizes[1]!) }}
      transforms={{ 'star-left': zoomed(zooms[0]), 'star-right': zoomed(zooms[1]) }}
      selectedCellId="star-left"
      restored
      onSelect={() => {}}
      onChoose={() => {}}
    />,
  )
}

const grades = (html: string) => [...html.matchAll(/data-testid="print-quality" data-grade="(\w+)"/g)].map((m) => m[1])

describe('PhotoSlots print quality', () => {
  it('follows the zoom: great at 1×, good at 1.5×, may look soft at 2.5× with the reason and what to do', () => {
    expect(grades(slots([1, 1.5]))).toEqual(['great', 'good'])
    const html = slots([2.5, 1])
    expect(grades(html)).toEqual(['soft', 'great'])
    expect(html).toContain('May look soft')
    expect(html).toContain('This photo is 1600 × 1200 and zoomed to 2.5×: about 118 dpi at print size (150 or more prints sharp).')
    expect(html).toContain('Zoom out to 1.9× or less, or choose a larger photo.')
    expect(html).toContain('about 296 dpi at print size')
    expect(html).not.toContain('Low resolution')
  })

  it('says the grade in a polite live region naming the ornament, and nothing for a slot without a photo', () => {
    const html = slots([2.5, 1])
    expect(html).toMatch(
      /role="status" aria-atomic="true"><span data-testid="print-quality-badge" data-grade="soft"[^>]*><span class="sr-only">Left ornament print quality: <\/span><span aria-hidden="true"[^>]*>!<\/span>May look soft<\/span><\/span>/,
    )
    // The dpi, the reason and the advice are outside the live region: zooming does not announce every step.
    expect(/role="status"[^>]*>(?:(?!<\/span><\/span>).)*118 dpi/.test(html)).toBe(false)
    const empty = renderToStaticMarkup(
      <PhotoSlots
        cells={cells}
        slotName={(c) => c.id}
        photos={{}}
        transforms={{}}
        selectedCellId="star-left"
        restored
        onSelect={() => {}}
        onChoose={() => {}}
      />,
    )
    expect(grades(empty)).toEqual(['none', 'none'])
    expect(empty).not.toContain('print-quality-badge')
  })
})

describe('PrintQualityBadge', () => {
  it('says each grade in words, with a mark that is not colour alone', () => {
    const text = (html: string) => html.replace(/<[^>]+>/g, '')
    expect(text(renderToStaticMarkup(<PrintQualityBadge grade="great" />))).toBe('✓Great for print')
    expect(text(renderToStaticMarkup(<PrintQualityBadge grade="good" />))).toBe('✓Good for print')
    expect(text(renderToStaticMarkup(<PrintQualityBadge grade="soft" />))).toBe('!May look soft')
    expect(text(renderToStaticMarkup(<PrintQualityBadge grade="refused" subject="Right ornament" />))).toBe('Right ornament print quality: ×Too small to print')
  })
})

describe('PrintQualityStageBadges', () => {
  it('marks on the preview only the photos that may look soft, over their cells', () => {
    const html = renderToStaticMarkup(
      <div>
        <PrintQualityStageBadges
          template={star}
          cells={cells}
          photos={{ 'star-left': { width: 1600, height: 1200 }, 'star-right': { width: 1600, height: 1200 } }}
          transforms={{ 'star-left': zoomed(3), 'star-right': zoomed(1) }}
        />
      </div>,
    )
    expect(html.match(/data-testid="stage-print-quality"/g)).toHaveLength(1)
    expect(html).toContain('aria-hidden="true"')
    expect(html).toContain('May look soft')
    const left = cells[0]!
    expect(html).toContain(`left:${(((left.absoluteCenterX - left.width / 2) / star.width) * 100).toString()}%`)
  })
})

describe('PreviewPrintQuality', () => {
  it("shows each ornament's grade from the server's answer, with the reason and advice when soft", () => {
    const html = renderToStaticMarkup(
      <PreviewPrintQuality
        quality={[
          { cellId: 'star-left', grade: 'great', dpi: 296 },
          {
            cellId: 'star-right',
            grade: 'soft',
            dpi: 118,
            reason: 'This photo is 1600 × 1200 and zoomed to 2.5×: about 118 dpi.',
            advice: 'Zoom out to 1.9× or less.',
          },
        ]}
      />,
    )
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
    expect(text).toContain('Print quality')
    expect(text).toContain('Left ornament ✓ Great for print about 296 dpi at print size')
    expect(text).toContain('Right ornament ! May look soft This photo is 1600 × 1200 and zoomed to 2.5×: about 118 dpi. Zoom out to 1.9× or less.')
    expect(renderToStaticMarkup(<PreviewPrintQuality quality={[]} />)).toBe('')
  })
})
