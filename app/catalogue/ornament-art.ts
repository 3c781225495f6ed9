import type { OrnamentShape } from './ornament-variants'

/**
 * The print sheets' sizes and their art's URLs: what the catalogue's cards draw (the /photo-products landing), apart
 * from ornaments.ts, which builds every template's cells and every back side when it loads (decision 049).
 * ornaments.ts re-exports them.
 */

/** Every template is this wide; print files are rendered at template pixels (300 dpi). */
export const TEMPLATE_WIDTH = 2670

export const templateHeights = { tree: 1844, star: 1519, stocking: 2026 } as const satisfies Record<OrnamentShape, number>

export const artBase = '/photo-products'
/** The renderers' art is PNG; the catalogue card's thumbnail, shown only as an <img>, is WebP (a third of the bytes on the landing). */
export const templateArtUrl = (shape: OrnamentShape, file: 'mask' | 'frame' | 'thumbnail' | 'pattern') =>
  `${artBase}/templates/${shape}/${file}.${file === 'thumbnail' ? 'webp' : 'png'}`
/** The same thumbnail as AVIF (about half the WebP's bytes), offered first by the catalogue's cards. */
export const templateThumbnailAvifUrl = (shape: OrnamentShape) => `${artBase}/templates/${shape}/thumbnail.avif`
