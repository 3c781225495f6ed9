import type { Endpoint } from '../endpoint'
import { saveDesignRequestSchema, savedDesignParamsSchema, savedDesignSchema, savedDesignsSchema, savedDesignVariantParamsSchema } from '../saved-designs'

const tag = 'photo-products-designs'

/** Designs saved to the account (issue 19): one unfinished design per shopper and variant. */
export const savedDesignsApi = {
  listSavedDesigns: {
    method: 'get',
    path: '/photo-products-designs',
    tag,
    summary: 'The shopper’s saved designs, last edited first',
    auth: 'user',
    response: savedDesignsSchema,
  },
  getSavedDesign: {
    method: 'get',
    path: '/photo-products-designs/:id',
    tag,
    summary: 'One saved design (404 when unknown or another shopper’s)',
    auth: 'user',
    params: savedDesignParamsSchema,
    response: savedDesignSchema,
  },
  saveDesign: {
    method: 'put',
    path: '/photo-products-designs/variants/:variantId',
    tag,
    summary: 'Save the shopper’s design of one variant, replacing the one saved before (404 when a photo is not one the shopper can see)',
    auth: 'user',
    params: savedDesignVariantParamsSchema,
    body: saveDesignRequestSchema,
    response: savedDesignSchema,
  },
  deleteSavedDesign: {
    method: 'delete',
    path: '/photo-products-designs/:id',
    tag,
    summary: 'Delete a saved design (404 when unknown or another shopper’s); answers the designs left',
    auth: 'user',
    params: savedDesignParamsSchema,
    response: savedDesignsSchema,
  },
} as const satisfies Record<string, Endpoint>
