import { printifyApi } from '../../contract/endpoints/printify'
import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { baseImageHashes, scaledBaseImage } from '../../compositor/base-images.server'
import { outputSize, patternTileSize } from '../../compositor/layout'
import { backSides, findOrnamentVariant, ornamentShapes, pseudoTemplates, TEMPLATE_WIDTH, templateForVariant } from '../../catalogue/ornaments'
import { countWebhookEvent } from '../../observability/metrics'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { AppError, notFound } from '../errors'
import { findPhotoProduct } from '../services/catalogue'
import { generatePreview, previewFile } from '../services/previews'
import { printFileOf, printFileUrlIsGood } from '../services/print-files'
import { receivePrintifyWebhook } from '../services/printify-orders'

export const printifyRoutes = new Hono<ApiEnv>()

const IMMUTABLE = 'public, max-age=31536000, immutable'
const BASE_IMAGE_CACHE = 'public, max-age=86400'

endpoint(printifyRoutes, printifyApi.listDesignTemplates, ({ query }, c) => {
  const variant = findOrnamentVariant(query.productVariantId)
  if (!variant) throw notFound(`Product variant ${query.productVariantId}`)
  c.header('cache-control', 'public, max-age=300')
  return { productVariantId: variant.id, templates: [templateForVariant(variant.id)!], backSides: backSides[variant.shape] }
})

endpoint(printifyRoutes, printifyApi.baseImageHash, async ({ params }, c) => {
  const product = findPhotoProduct(params.id)
  c.header('cache-control', 'public, max-age=60')
  return { productId: product.id, hashes: await baseImageHashes() }
})

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

endpoint(printifyRoutes, printifyApi.listBaseImages, async ({ query }, c) => {
  const size = scaledSizeOf(query.path, query.width)
  if (!size) throw notFound(`Base image ${query.path}`)
  const body = await scaledBaseImage(query.path, size)
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`
  // Not immutable: the URL names the art, not its version, and new art must reach browsers (baseImageHash tells them).
  if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag, 'cache-control': BASE_IMAGE_CACHE } })
  return new Response(new Uint8Array(body), {
    headers: { 'content-type': 'image/png', 'cache-control': BASE_IMAGE_CACHE, etag, 'content-length': String(body.length) },
  })
})

endpoint(printifyRoutes, printifyApi.generatePreview, ({ body, user }, c) => {
  const deps = c.get('deps')
  return generatePreview(deps, user, body)
})

endpoint(printifyRoutes, printifyApi.previewFile, async ({ params }, c) => {
  const object = await previewFile(c.get('deps'), params.previewId, params.file)
  if (!object) throw new AppError('not_found', 'Preview file not found')
  return new Response(new Uint8Array(object.body), {
    // The type the document declares for the name (front.png, mockup-front.jpg), whatever the store kept beside it.
    headers: {
      'content-type': params.file.endsWith('.png') ? 'image/png' : 'image/jpeg',
      'cache-control': IMMUTABLE,
      'content-length': String(object.body.length),
    },
  })
})

/** A print file as the print provider fetches it: a signed URL (print-files.ts), so it works days later and from a private bucket. */
endpoint(printifyRoutes, printifyApi.printFile, async ({ params, query }, c) => {
  const deps = c.get('deps')
  const position = params.file === 'front.png' ? 'front' : 'back'
  if (!(await printFileUrlIsGood(deps, params.previewId, position, query.expires, query.signature)))
    throw new AppError('forbidden', 'This print file link is not signed by Keepsake or has expired')
  const object = await printFileOf(deps, params.previewId, position)
  if (!object) throw new AppError('not_found', 'Print file not found')
  return new Response(new Uint8Array(object.body), {
    headers: { 'content-type': 'image/png', 'cache-control': 'private, max-age=86400', 'content-length': String(object.body.length) },
  })
})

/** Printify's order webhook: every delivery ends in one outcome (services/printify-orders.ts); a refusal answers its 4xx. */
endpoint(printifyRoutes, printifyApi.printifyWebhook, async (_input, c) => {
  const result = await receivePrintifyWebhook(c.get('deps'), c.req.raw)
  countWebhookEvent('printify', result.type ?? 'unknown', result.outcome)
  if (result.outcome === 'refused') throw result.error
  return { received: true as const, outcome: result.outcome }
})
