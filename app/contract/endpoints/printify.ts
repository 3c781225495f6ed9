import type { Endpoint } from '../endpoint'
import {
  baseImageHashSchema,
  designTemplatesQuerySchema,
  designTemplatesSchema,
  generatePreviewRequestSchema,
  generatePreviewResponseSchema,
  scaledBaseImageQuerySchema,
} from '../designs'
import { z } from '../zod'

export const printifyApi = {
  listDesignTemplates: {
    method: 'get',
    path: '/design-templates',
    tag: 'designs',
    summary: "A variant's pseudo templates (cells, mask, frame) and its fourteen back-side designs",
    auth: 'none',
    query: designTemplatesQuerySchema,
    response: designTemplatesSchema,
  },
  baseImageHash: {
    method: 'get',
    path: '/printify/baseImageHash/:id',
    tag: 'designs',
    summary: "Content hashes of a product's base images (masks, frames, patterns, back sides), keyed by path",
    auth: 'none',
    params: z.object({ id: z.string().min(1).max(64) }),
    response: baseImageHashSchema,
  },
  listBaseImages: {
    method: 'get',
    path: '/printify/base-images',
    tag: 'designs',
    summary: 'A mask, frame, pattern tile or back side scaled with the print renderer for a preview canvas of the given width',
    auth: 'none',
    query: scaledBaseImageQuerySchema,
    response: z.any(),
    produces: ['image/png'],
    alsoAnswers: { 304: 'Not modified: the ETag sent is current' },
  },
  generatePreview: {
    method: 'post',
    path: '/printify/generate-preview',
    tag: 'designs',
    summary: 'Render a design into print files and mockups, create the print product, and answer its preview images',
    auth: 'user',
    body: generatePreviewRequestSchema,
    response: generatePreviewResponseSchema,
    status: 201,
  },
  previewFile: {
    method: 'get',
    path: '/media/previews/:previewId/:file',
    tag: 'media',
    summary: 'A stored preview file: print files (front.png, back.png), mockups and source crops',
    auth: 'none',
    params: z.object({ previewId: z.uuid({ error: 'Preview not found' }), file: z.string().max(32) }),
    response: z.any(),
    produces: ['image/png', 'image/jpeg'],
  },
  printifyWebhook: {
    method: 'post',
    path: '/webhooks/printify',
    tag: 'orders',
    summary:
      'Printify order webhook (order:created, order:updated, order:sent-to-production, order:shipment:created, order:shipment:delivered, order:canceled), signed with PRINTIFY_WEBHOOK_SECRET; a repeat or an unknown order is acknowledged and changes nothing',
    auth: 'none',
    headers: { 'x-pf-signature': 'sha256=<hex HMAC-SHA256 of the raw body>' },
    response: z.object({ received: z.literal(true), outcome: z.enum(['applied', 'duplicate', 'ignored']) }),
  },
} as const satisfies Record<string, Endpoint>
