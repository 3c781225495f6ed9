/**
 * The personal line's typefaces as the print renderer reads them: the same font files the browser
 * fetches (public/fonts/personal-line/), read from disk once and parsed with opentype.js.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { typefaceFileUrl, type TypefaceId } from '../catalogue/personal-line'
import { publicDir } from './base-images.server'
import { parseFont, type LineFont } from './text-line'

const fonts = new Map<TypefaceId, Promise<LineFont>>()

export function typefaceFont(id: TypefaceId): Promise<LineFont> {
  let font = fonts.get(id)
  if (!font) {
    font = readFile(join(publicDir(), typefaceFileUrl(id))).then(parseFont)
    font.catch(() => fonts.delete(id))
    fonts.set(id, font)
  }
  return font
}
