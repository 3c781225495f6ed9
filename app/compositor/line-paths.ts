/**
 * Each ornament's personal line as SVG paths in template pixels, for the saved-design thumbnails:
 * the fonts the live preview uses (line-fonts.ts), laid out by the one layout function (text-line.ts),
 * so a thumbnail shows the lines where and as the print has them. Loaded lazily with opentype.js.
 */
import type { PseudoTemplate } from '../catalogue/ornaments'
import { findColour, typefaceFileUrl, type PersonalText } from '../catalogue/personal-line'
import { loadLineFont } from './line-fonts'
import { linePathData, linesByCell } from './text-line'

export type LinePath = {
  cellId: string
  d: string
  fill: string
  /** The Text cell's box (template pixels): the print draws nothing of the line outside it. */
  box: { x: number; y: number; width: number; height: number }
}

export async function linePaths(template: PseudoTemplate, text: PersonalText | null | undefined, fontUrl = typefaceFileUrl): Promise<LinePath[]> {
  return Promise.all(
    linesByCell(template, text).map(async ({ cell, line }) => ({
      cellId: cell.id,
      d: linePathData(await loadLineFont(fontUrl(line.typeface)), line.line, cell),
      fill: findColour(line.colour)?.hex ?? '#ffffff',
      box: { x: cell.absoluteCenterX - cell.width / 2, y: cell.absoluteCenterY - cell.height / 2, width: cell.width, height: cell.height },
    })),
  )
}
