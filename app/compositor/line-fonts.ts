/**
 * The personal lines' font files in the browser: fetched from the store (public/fonts/personal-line/)
 * once per page and typeface, and parsed by opentype.js. The live preview and the saved-design
 * thumbnails share this cache; the server reads the same files from disk (text-fonts.server.ts).
 */
import { parseFont, type LineFont } from './text-line'

const fonts = new Map<string, Promise<LineFont>>()

export function loadLineFont(url: string): Promise<LineFont> {
  let font = fonts.get(url)
  if (!font) {
    font = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`Could not load ${url}: ${response.status}`)
      return parseFont(await response.arrayBuffer())
    })
    font.catch(() => fonts.delete(url))
    fonts.set(url, font)
  }
  return font
}
