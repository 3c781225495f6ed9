import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { baseImageHashes, scaledBaseImage } from '../../compositor/base-images.server'
import { outputSize, patternTileSize } from '../../compositor/layout'
import {
  baseImageHashSchema,
  designTemplatesQuerySchema,
  designTemplatesSchema,
  generatePreviewRequestSchema,
  generatePreviewResponseSchema,
  scaledBaseImageQuerySchema,
} from '../../contract/designs'
import { z } from '../../contract/zod'
import { backSides, findOrnamentVariant, ornamentShapes, pseudoTemplates, TEMPLATE_WIDTH, templateForVariant } from '../../catalogue/ornaments'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError, notFound } from '../errors'
import { findPhotoProduct } from '../services/catalogue'
import { generatePreview, previewFile } from '../services/previews'

export const printifyRoutes = new Hono<ApiEnv>()

const IMMUTABLE = 'public, max-age=31536000, immutable'
const BASE_IMAGE_CACHE = 'public, max-age=86400'

endpoint(
  printifyRoutes,
  {
    method: 'get',
    path: '/design-templates',
    tag: 'designs',
    summary: "A variant's pseudo templates (cells, mask, frame) and its fourteen back-side designs",
    auth: 'none',
    query: designTemplatesQuerySchema,
    response: designTemplatesSchema,
  },
  ({ query }, c) => {
    const variant = findOrnamentVariant(query.productVariantId)
    if (!variant) throw notFound(`Product variant ${query.productVariantId}`)
    c.header('cache-control', 'public, max-age=300')
    return { productVariantId: variant.id, templates: [templateForVariant(variant.id)!], backSides: backSides[variant.shape] }
  },
)

endpoint(
  printifyRoutes,
  {
    method: 'get',
    path: '/printify/baseImageHash/:id',
    tag: 'designs',
    summary: "Content hashes of a product's base images (masks, frames, patterns, back sides), keyed by path",
    auth: 'none',
    params: z.object({ id: z.string().min(1).max(64) }),
    response: baseImageHashSchema,
  },
  async ({ params }, c) => {
    const product = findPhotoProduct(params.id)
    c.header('cache-control', 'public, max-age=60')
    return { productId: product.id, hashes: await baseImageHashes() }
  },
)

/** The size a base image is drawn at when the preview canvas is `width` pixels wide. */
function scaledSizeOf(path: string, width: number) {
  const scale = width / TEMPLATE_WIDTH
  for (const shape of ornamentShapes) {
    const template = pseudoTemplates[shape]
    if (path === template.maskImageUrl || path === template.templateImageUrl) return outputSize(template, scale)
    const pattern = template.cells.find((cell) => cell.patternData?.tileUrl === path)?.patternData
    if (pattern) return patternTileSize(pattern, scale)
    if (backSides[shape].some((b) => b.backsideUrl === path)) return outputSize(template, scale)
  }
  return null
}

endpoint(
  printifyRoutes,
  {
    method: 'get',
    path: '/printify/base-images',
    tag: 'designs',
    summary: 'A mask, frame, pattern tile or back side scaled with the print renderer for a preview canvas of the given width',
    auth: 'none',
    query: scaledBaseImageQuerySchema,
    response: z.any(),
  },
  async ({ query }, c) => {
    const size = scaledSizeOf(query.path, query.width)
    if (!size) throw notFound(`Base image ${query.path}`)
    const body = await scaledBaseImage(query.path, size)
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`
    // Not immutable: the URL names the art, not its version, and new art must reach browsers (baseImageHash tells them).
    if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag, 'cache-control': BASE_IMAGE_CACHE } })
    return new Response(new Uint8Array(body), {
      headers: { 'content-type': 'image/png', 'cache-control': BASE_IMAGE_CACHE, etag, 'content-length': String(body.length) },
    })
  },
)

endpoint(
  printifyRoutes,
  {
    method: 'post',
    path: '/printify/generate-preview',
    tag: 'designs',
    summary: 'Render a design into print files and mockups, create the print product, and answer its preview images',
    auth: 'user',
    body: generatePreviewRequestSchema,
    response: generatePreviewResponseSchema,
    status: 201,
  },
  ({ body, user }, c) => {
    const deps = c.get('deps')
    return generatePreview(deps, deps.print, user, body)
  },
)

endpoint(
  printifyRoutes,
  {
    method: 'get',
    path: '/media/previews/:previewId/:file',
    tag: 'media',
    summary: 'A stored preview file: print files (front.png, back.png), mockups and source crops',
    auth: 'none',
    params: z.object({ previewId: z.uuid({ error: 'Preview not found' }), file: z.string().max(32) }),
    response: z.any(),
  },
  async ({ params }, c) => {
    const object = await previewFile(c.get('deps'), params.previewId, params.file)
    if (!object) throw new AppError('not_found', 'Preview file not found')
    return new Response(new Uint8Array(object.body), {
      headers: { 'content-type': object.contentType, 'cache-control': IMMUTABLE, 'content-length': String(object.body.length) },
    })
  },
)
