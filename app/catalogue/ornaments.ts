/**
 * The ornament catalogue, SPEC.md §1, §3 and §9, in one typed module: the three shapes (each a
 * Printify variant taking two photos), their pseudo templates and cells, and the fourteen back-side
 * designs of each. Prices are decided here, on the server's side of every sale, and only read by the
 * client. The art under public/photo-products/ is generated from these numbers by
 * scripts/generate-ornament-art.ts.
 *
 * An ornament is sold as a matching pair: the print sheet (the template, 2670 px wide) holds two
 * ornaments side by side, one photo on the front of each; the back of both carries the chosen design.
 */
// The variants themselves live in ornament-variants.ts (what a route needs to know a variant id), re-exported here.
import { ORNAMENT_PRODUCT_ID, findOrnamentVariant, ornamentVariants, type OrnamentShape, type OrnamentVariant } from './ornament-variants'

// The sheets' sizes and art URLs live in ornament-art.ts (what the catalogue's cards draw), re-exported below.
import { TEMPLATE_WIDTH, artBase, templateArtUrl, templateHeights, templateThumbnailAvifUrl } from './ornament-art'

export { ORNAMENT_PRODUCT_ID, findOrnamentVariant, ornamentVariants, type OrnamentShape, type OrnamentVariant }

export const ornamentShapes = ornamentVariants.map((v) => v.shape) as readonly OrnamentShape[]

export const ornamentProduct = {
  id: ORNAMENT_PRODUCT_ID,
  title: 'Photo Ornament',
  description: 'A pair of glossy ornaments, one of your photos on the front of each and a festive design on the back. Printed, cut and shipped in a gift box.',
  provider: 'PRINTIFY',
  /** Printify blueprint and print provider of the ceramic photo ornament. */
  providerProductId: 1186,
  printProviderId: 228,
  numberOfUserImages: 2,
  variants: ornamentVariants,
} as const

/** The catalogue's name for one variant, e.g. "Star Photo Ornament" (the cart, previews and orders all use it). */
export function variantTitle(variant: Pick<OrnamentVariant, 'name'>): string {
  return `${variant.name} ${ornamentProduct.title}`
}

export function variantOfShape(shape: OrnamentShape): OrnamentVariant {
  return ornamentVariants.find((v) => v.shape === shape)!
}

// ---------------------------------------------------------------------------------------------
// Templates and cells (SPEC.md §3, §9)

export { TEMPLATE_WIDTH, artBase, templateArtUrl, templateHeights, templateThumbnailAvifUrl }

export const PRINT_DPI = 300

export const cellSizes = {
  tree: { width: 1149, height: 1700 },
  star: { width: 1097, height: 1214 },
  stocking: { width: 1158, height: 1874 },
} as const satisfies Record<OrnamentShape, { width: number; height: number }>

/**
 * Centres of the two photo cells on each sheet, chosen so every cell edge falls on a whole
 * template pixel (odd widths get a .5 centre). The left ornament's centre is a quarter of the way
 * across, the right one's three quarters.
 */
const cellCentres = {
  tree: { y: 922, x: [667.5, 2002.5] },
  star: { y: 760, x: [667.5, 2002.5] },
  stocking: { y: 1013, x: [667, 2003] },
} as const satisfies Record<OrnamentShape, { y: number; x: readonly [number, number] }>

export type CellType = 'Image' | 'PatternImage' | 'Text'
export type CellPosition = 'OnTop' | 'Beneath'

export type PatternData = {
  /** A seamless tile, repeated from the cell's top-left corner at template scale. */
  tileUrl: string
  tileWidth: number
  tileHeight: number
}

export type TemplateCell = {
  id: string
  templateVariantId: number
  type: CellType
  /** The user's image once placed; a template describes empty cells. */
  imageData: null
  patternData: PatternData | null
  absoluteCenterX: number
  absoluteCenterY: number
  width: number
  height: number
  positionRelativeToTemplate: CellPosition
  /** The order the shopper fills Image cells in (0, 1); pattern and text cells come after. */
  order: number
  zIndex: number
  /**
   * Image cells: where a photo's subject should sit, as fractions of the cell's width and height; smart
   * placement (app/compositor/focal-placement.ts, decision 059) starts each photo with its focal point
   * here. Absent: the centre.
   */
  focus?: { x: number; y: number }
}

export type PseudoTemplate = {
  id: string
  name: string
  numberOfUserImages: number
  /** Alpha is where ink goes: both ornament silhouettes. Its colour channels are black. */
  maskImageUrl: string
  /** The rims, hanging loops and trim drawn between Beneath and OnTop cells. */
  templateImageUrl: string
  thumbnailUrl: string
  productVariantIds: number[]
  width: number
  height: number
  cells: TemplateCell[]
}

export const PATTERN_TILE_SIZE = 160

/**
 * Where the personal line goes on the left ornament of each pair (template pixels): a band inside
 * the silhouette, clear of the rims and trim the frame draws, over the lower part of the photo (the
 * tree's bottom tier, the star's body, the stocking's leg above the heel). The right ornament is the
 * left one mirrored across the sheet's centre. Whole-pixel edges, like the photo cells.
 */
const textBands = {
  tree: { x: 667.5, y: 1525, width: 901, height: 150 },
  star: { x: 667.5, y: 1150, width: 621, height: 140 },
  stocking: { x: 767, y: 875, width: 700, height: 150 },
} as const satisfies Record<OrnamentShape, { x: number; y: number; width: number; height: number }>

/**
 * Where each ornament wants a photo's subject (fractions of its photo cell, the left ornament's; the
 * right one is its mirror): slightly above the middle of the silhouette's body and clear of the personal
 * line's band — the tree's wide middle tiers, the star's body, the stocking's leg above the line (its leg
 * is off the cell's centre, towards the side away from the toe).
 */
const cellFocus = {
  tree: { x: 0.5, y: 0.55 },
  star: { x: 0.5, y: 0.45 },
  stocking: { x: 0.59, y: 0.26 },
} as const satisfies Record<OrnamentShape, { x: number; y: number }>

/** Canvas widths the live preview draws at; the API scales base images to exactly these. */
export const previewWidths = [320, 480, 640, 800, 960, 1280] as const

export function pseudoTemplateId(shape: OrnamentShape) {
  return `pseudo-${shape}-pair`
}

function buildTemplate(variant: OrnamentVariant): PseudoTemplate {
  const { shape } = variant
  const width = TEMPLATE_WIDTH
  const height = templateHeights[shape]
  const size = cellSizes[shape]
  const centres = cellCentres[shape]
  const photoCells: TemplateCell[] = centres.x.map((x, i) => ({
    id: `${shape}-${i === 0 ? 'left' : 'right'}`,
    templateVariantId: variant.id,
    type: 'Image',
    imageData: null,
    patternData: null,
    absoluteCenterX: x,
    absoluteCenterY: centres.y,
    width: size.width,
    height: size.height,
    positionRelativeToTemplate: 'Beneath',
    order: i,
    zIndex: i + 1,
    focus: { x: i === 0 ? cellFocus[shape].x : 1 - cellFocus[shape].x, y: cellFocus[shape].y },
  }))
  const patternCell: TemplateCell = {
    id: `${shape}-pattern`,
    templateVariantId: variant.id,
    type: 'PatternImage',
    imageData: null,
    patternData: { tileUrl: templateArtUrl(shape, 'pattern'), tileWidth: PATTERN_TILE_SIZE, tileHeight: PATTERN_TILE_SIZE },
    absoluteCenterX: width / 2,
    absoluteCenterY: height / 2,
    width,
    height,
    positionRelativeToTemplate: 'Beneath',
    order: 2,
    zIndex: 0,
  }
  const band = textBands[shape]
  // Each line is drawn over its ornament's photo and cut by the same mask (a Beneath cell above the photos).
  const lineCells: TemplateCell[] = [band.x, width - band.x].map((x, i) => ({
    id: `${shape}-${i === 0 ? 'left' : 'right'}-text`,
    templateVariantId: variant.id,
    type: 'Text',
    imageData: null,
    patternData: null,
    absoluteCenterX: x,
    absoluteCenterY: band.y,
    width: band.width,
    height: band.height,
    positionRelativeToTemplate: 'Beneath',
    order: 3 + i,
    zIndex: 3 + i,
  }))
  return {
    id: pseudoTemplateId(shape),
    name: `${variant.name} pair`,
    numberOfUserImages: ornamentProduct.numberOfUserImages,
    maskImageUrl: templateArtUrl(shape, 'mask'),
    templateImageUrl: templateArtUrl(shape, 'frame'),
    thumbnailUrl: templateArtUrl(shape, 'thumbnail'),
    productVariantIds: [variant.id],
    width,
    height,
    cells: [patternCell, ...photoCells, ...lineCells],
  }
}

export const pseudoTemplates: Record<OrnamentShape, PseudoTemplate> = {
  tree: buildTemplate(variantOfShape('tree')),
  star: buildTemplate(variantOfShape('star')),
  stocking: buildTemplate(variantOfShape('stocking')),
}

export function templateForVariant(variantId: number): PseudoTemplate | undefined {
  const variant = findOrnamentVariant(variantId)
  return variant && pseudoTemplates[variant.shape]
}

/** The Image cells a shopper fills, in order. */
export function photoCells(template: PseudoTemplate): TemplateCell[] {
  return template.cells.filter((c) => c.type === 'Image').sort((a, b) => a.order - b.order)
}

// ---------------------------------------------------------------------------------------------
// Back sides (SPEC.md §3, §9)

export const sharedBackSideNames = [
  "Santa's Workshop",
  'North Pole',
  'Candy Cane',
  'Flannel',
  'Let It Snow',
  'Ribbon Whimsy',
  'Cozy Winter',
  'Spruce Delight',
  'Holly Jolly',
  'Festive Fair',
  'Solid Gold',
  'Solid Red',
  'Midnight Stars',
] as const

export const BACK_SIDES_PER_VARIANT = 14

export function backSideName(variant: OrnamentVariant, n: number): string {
  return sharedBackSideNames[n - 1] ?? `Classic ${variant.name}`
}

export type BackSideOption = {
  /** `{variant}-{n}` */
  id: string
  name: string
  /** The pseudo template the back belongs to. */
  template: string
  backsideId: number
  backsideUrl: string
  /** A small rendering of one ornament's back, for pickers. */
  thumbnailUrl: string
  templateWidth: number
  templateHeight: number
  /** CSS class that clips a preview to the ornament silhouettes (app/styles). */
  cropStencilClassName: string
}

export const backSideUrl = (variantId: number, n: number) => `${artBase}/back-sides/${variantId}/${n}.png`
export const backSideThumbnailUrl = (variantId: number, n: number) => `${artBase}/back-sides/${variantId}/thumbs/${n}.png`

function buildBackSides(variant: OrnamentVariant): BackSideOption[] {
  const template = pseudoTemplates[variant.shape]
  return Array.from({ length: BACK_SIDES_PER_VARIANT }, (_, i) => {
    const n = i + 1
    return {
      id: `${variant.id}-${n}`,
      name: backSideName(variant, n),
      template: template.id,
      backsideId: n,
      backsideUrl: backSideUrl(variant.id, n),
      thumbnailUrl: backSideThumbnailUrl(variant.id, n),
      templateWidth: template.width,
      templateHeight: template.height,
      cropStencilClassName: `stencil-${variant.shape}`,
    }
  })
}

export const backSides: Record<OrnamentShape, BackSideOption[]> = {
  tree: buildBackSides(variantOfShape('tree')),
  star: buildBackSides(variantOfShape('star')),
  stocking: buildBackSides(variantOfShape('stocking')),
}

export function findBackSide(id: string): BackSideOption | undefined {
  return Object.values(backSides)
    .flat()
    .find((b) => b.id === id)
}

/** Every base image of the product (masks, frames, thumbnails, patterns, back sides), as public paths. */
export function baseImagePaths(): string[] {
  const paths: string[] = []
  for (const shape of ornamentShapes) {
    for (const file of ['mask', 'frame', 'thumbnail', 'pattern'] as const) paths.push(templateArtUrl(shape, file))
    for (const b of backSides[shape]) paths.push(b.backsideUrl, b.thumbnailUrl)
  }
  return paths
}

/** The Text cells the personal lines are drawn in (one per ornament: the left one's, then the right one's). */
export function textCells(template: PseudoTemplate): TemplateCell[] {
  return template.cells.filter((c) => c.type === 'Text').sort((a, b) => a.order - b.order)
}

/** How far a photo may be zoomed into its cell: the designer's slider, the layout maths and the API's check. */
export const MAX_ZOOM = 5
