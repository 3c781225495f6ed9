import { randomUUID } from 'node:crypto'
import { carts, checkoutSessions, jobs, orders, previews } from '../../app/api/db/schema'
import { findOrnamentVariant, ornamentProduct, pseudoTemplates, variantOfShape, type OrnamentShape } from '../../app/catalogue/ornaments'
import { MemoryRateLimiter } from '../../app/api/rate-limit'
import type { TestApi } from './test-api'
import { PRINT_POSITIONS, printFileKey } from '../../app/api/services/print-files'
import type { ObjectStorage } from '../../app/api/storage/storage'

/** A 1×1 PNG: a print file's stand-in where a test needs one to exist, not its pixels. */
export const PLACEHOLDER_PRINT_FILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

/**
 * A preview record as generate-preview writes it, without rendering (the cart only needs the record;
 * tests/api/designs.test.ts covers the rendering). Its URLs are the server's own.
 */
export async function recordPreview(t: TestApi, userId: string, shape: OrnamentShape = 'star') {
  const id = randomUUID()
  const variant = variantOfShape(shape)
  const url = (file: string) => t.api.deps.media.previewUrl(id, file)
  const photoIds = [randomUUID(), randomUUID()]
  const sourceImages = photoIds.map((photoId, i) => ({
    cropped: t.api.deps.media.sourceCropUrl(id, i),
    original: t.api.deps.media.photoUrl(photoId, 'smartphone'),
  }))
  await t.db.insert(previews).values({
    id,
    userId,
    variantId: variant.id,
    pseudoTemplateId: pseudoTemplates[shape].id,
    backSideId: `${variant.id}-3`,
    design: photoIds.map((photoId, i) => ({ cellId: `${shape}-${i ? 'right' : 'left'}`, photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
    printAreas: [
      { position: 'front', imageUrl: t.api.deps.media.printFileUrl(id, 'front') },
      { position: 'back', imageUrl: t.api.deps.media.printFileUrl(id, 'back') },
    ],
    sourceImages,
    images: [url('mockup-front.jpg'), url('mockup-back.jpg')],
    provider: 'local',
    providerProductId: id,
    createdAt: t.now(),
  })
  // Its print files, as a render would have kept them beside a preview made before issue 50 (no design hash): a
  // parcel is never submitted without them, and its photos are not in storage to render them from.
  await putPlaceholderPrintFiles(t.storage, id)
  return { id, variantId: variant.id, url, sourceImages }
}

/**
 * Print files for a preview recorded without rendering (a fixture whose photos are not in storage), where a preview
 * made before issue 50 kept them: a parcel is never submitted without its print files.
 */
export async function putPlaceholderPrintFiles(storage: Pick<ObjectStorage, 'put'>, previewId: string) {
  for (const position of PRINT_POSITIONS) await storage.put(printFileKey({ id: previewId, designHash: null }, position), PLACEHOLDER_PRINT_FILE, 'image/png')
}

/** The cart item a client builds from a recorded preview: SPEC.md §3 metadata with the catalogue's prices. */
export function cartItemFor(preview: Awaited<ReturnType<typeof recordPreview>>, overrides: { metadata?: Record<string, unknown>; [k: string]: unknown } = {}) {
  const variant = findOrnamentVariant(preview.variantId)!
  // The record as generate-preview answers it.
  const generated = {
    previewId: preview.id,
    variantId: variant.id,
    images: [preview.url('mockup-front.jpg'), preview.url('mockup-back.jpg')],
    sourceImages: preview.sourceImages,
    printAreas: [
      { position: 'front', imageUrl: preview.url('front.png') },
      { position: 'back', imageUrl: preview.url('back.png') },
    ],
    pseudoTemplateId: `pseudo-${variant.shape}-pair`,
  }
  return cartItemOfGenerated(generated, overrides)
}

/** The address API tests ship to (a US address the checkout accepts). */
export const testAddress = {
  name: 'Maya Rivera',
  email: 'maya@example.com',
  line1: '12 Orchard Street',
  city: 'New York',
  state: 'NY',
  postalCode: '10002',
  country: 'US' as const,
}

/**
 * The cart line the designer sends for a preview the API generated (`POST /v1/printify/generate-preview`'s
 * answer): its images, source images, print areas and template, at the star's catalogue prices unless
 * `metadata` says otherwise.
 */
export function cartItemOfGenerated(g: Record<string, any>, { metadata = {}, ...rest }: { metadata?: Record<string, unknown>; [k: string]: unknown } = {}) {
  const variant = findOrnamentVariant(g.variantId)!
  return {
    itemIdentifier: `preview-${g.previewId}`,
    provider: 'PRINTIFY',
    metadata: {
      providerProductId: ornamentProduct.providerProductId,
      variantId: variant.id,
      printProviderId: ornamentProduct.printProviderId,
      title: `${variant.name} Photo Ornament`,
      price: variant.price,
      salePrice: variant.salePrice,
      previewCdnUrl: g.images[0],
      previewCdnUrls: g.images,
      sourceImages: g.sourceImages,
      printAreas: g.printAreas,
      pseudoTemplateId: g.pseudoTemplateId,
      ...metadata,
    },
    ...rest,
  }
}

/**
 * Every order, checkout session, cart and job gone (an order's parcels go with it), and the rate limits counted afresh
 * (the test clock stands still, so one file's checkouts would otherwise share one window): each test starts from empty carts.
 */
export async function emptyCartsAndOrders(t: TestApi) {
  for (const table of [orders, checkoutSessions, carts, jobs]) await t.db.delete(table)
  t.api.deps.rateLimiter = new MemoryRateLimiter()
}
