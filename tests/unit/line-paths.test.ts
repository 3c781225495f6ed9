import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { pseudoTemplates } from '~/catalogue/ornaments'
import { linePaths } from '~/compositor/line-paths'
import { haloRadius, linesByCell } from '~/compositor/text-line'

/** The saved-design thumbnails draw a line's halo as the print does (decision 058): its colour, its width, the letters fitted inside it. */
vi.stubGlobal('fetch', async (url: string) => new Response(await readFile(path.join('public', url))))
afterAll(() => vi.unstubAllGlobals())

const star = pseudoTemplates.star
const line = { line: 'Ava · 2026', typeface: 'lora' as const, colour: 'snow' as const }

describe('a thumbnail’s personal lines', () => {
  it('without a halo: the letters alone, in the line’s colour', async () => {
    const [left] = await linePaths(star, { left: line })
    expect(left).toMatchObject({ fill: '#ffffff', halo: null })
  })

  it('with a halo: a stroke of twice its width in the halo’s colour, and letters fitted inside it', async () => {
    const [plain] = await linePaths(star, { left: line })
    const [haloed] = await linePaths(star, { left: { ...line, halo: true } })
    const cell = linesByCell(star, { left: line })[0]!.cell
    expect(haloed!.halo).toEqual({ stroke: '#2b2320', width: 2 * haloRadius(cell) })
    expect(haloed!.d).not.toEqual(plain!.d)
    const [ink] = await linePaths(star, { left: { ...line, colour: 'ink', halo: true } })
    expect(ink!.halo!.stroke).toBe('#ffffff')
  })
})
