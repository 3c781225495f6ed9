/**
 * Each ornament's personal line as SVG paths in template pixels, for the saved-design thumbnails:
 * the fonts the live preview uses (line-fonts.ts), laid out by the one layout function (text-line.ts),
 * so a thumbnail shows the lines where and as the print has them. Loaded lazily with opentype.js.
 */
import type { PseudoTemplate } from '../catalogue/ornaments'
import { findColour, haloColourOf, typefaceFileUrl, type PersonalText } from '../catalogue/personal-line'
import { loadLineFont } from './line-fonts'
import { haloRadius, linePathData, linesByCell } from './text-line'

export type LinePath = {
  cellId: string
  d: string
  fill: string
  /** A line with a halo: an SVG stroke of twice its width (half of it outside the letters) in the halo's colour. */
  halo: { stroke: string; width: number } | null
  /** The Text cell's box (template pixels): the print draws nothing of the line outside it. */
  box: { x: number; y: number; width: number; height: number }
}

export async function linePaths(template: PseudoTemplate, text: PersonalText | null | undefined, fontUrl = typefaceFileUrl): Promise<LinePath[]> {
  return Promise.all(
    linesByCell(template, text).map(async ({ cell, line }) => ({
      cellId: cell.id,
      // Fitted inside the halo as the print fits it (text-line.ts drawLine).
      d: linePathData(await loadLineFont(fontUrl(line.typeface)), line.line, cell, line.halo ? haloRadius(cell) : 0),
      fill: findColour(line.colour)?.hex ?? '#ffffff',
      halo: line.halo ? { stroke: findColour(haloColourOf(line.colour))?.hex ?? '#2b2320', width: 2 * haloRadius(cell) } : null,
      box: { x: cell.absoluteCenterX - cell.width / 2, y: cell.absoluteCenterY - cell.height / 2, width: cell.width, height: cell.height },
    })),
  )
}
