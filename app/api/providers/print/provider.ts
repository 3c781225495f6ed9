/**
 * A print-on-demand provider, as the preview and order code sees it. Two implementations:
 * `local` (our own renderer's files are the product; default) and `printify` (PRINTIFY_API_TOKEN).
 */
import type { ShippingMethodId } from '../../../catalogue/shipping'

export type PrintFilePosition = 'front' | 'back'

export type PrintFile = {
  position: PrintFilePosition
  /** A stable file name, e.g. `<previewId>-front.png`. */
  fileName: string
  /** Public URL the provider may fetch the file from. */
  url: string
  /** The PNG itself, for providers that take uploads by content. */
  png: Buffer
}

export type PreviewProductInput = {
  /** Our preview id, used as the provider-side external reference. */
  previewId: string
  title: string
  description: string
  /** Printify blueprint id and print provider id (catalogue). */
  blueprintId: number
  printProviderId: number
  variantId: number
  /** Whole cents. */
  priceCents: number
  printFiles: PrintFile[]
}

export type Mockup = { url: string; position: PrintFilePosition | 'other'; isDefault: boolean }

export type PreviewProduct = {
  /** The provider's product id (local: our preview id). */
  productId: string
  mockups: Mockup[]
}

export type PrintOrderInput = {
  /** Our order id: Printify's external_id, so a retried submission finds the first one. */
  orderId: string
  reference: string
  lines: { providerProductId: string; variantId: number; quantity: number }[]
  /** The parcel's shipping method, as the shopper chose and paid for it. */
  shippingMethod: ShippingMethodId
  address: { name: string; email: string; phone: string; line1: string; line2: string; city: string; state: string; postalCode: string; country: string }
}

/** A product (Printify blueprint and print provider) and one of the store's shipping methods. */
export type ShippingCostQuery = { blueprintId: number; printProviderId: number; method: ShippingMethodId }

/** What the provider charges to ship a variant to a country by the method asked: the first item, and each further one (cents). */
export type ShippingCost = { variantId: number; country: string; firstItemCents: number; additionalItemsCents: number }

export interface PrintProvider {
  readonly name: 'local' | 'printify'
  /**
   * Create a product from rendered print files and answer its mockups. `localMockups` are the
   * mockups our renderer made; the local provider answers them, Printify answers its own.
   */
  createPreviewProduct(input: PreviewProductInput, localMockups: Mockup[]): Promise<PreviewProduct>
  /**
   * Sends an order to production and answers the provider's order id. Safe to call again after an
   * unclear failure: an order already submitted under `orderId` is found, never created twice.
   */
  submitOrder(input: PrintOrderInput): Promise<{ providerOrderId: string }>
  /**
   * The provider's own shipping prices for a method (services/shipping-quotes.ts caches them): a variant and country
   * with no row is not shipped that way. Absent (local): the store's table prices every parcel. Throws when the
   * provider cannot answer; the table is then the fallback.
   */
  shippingCosts?(query: ShippingCostQuery): Promise<ShippingCost[]>
}

/** The provider could not do what was asked; the API answers 502 with this message. */
export class PrintProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
    this.name = 'PrintProviderError'
  }
}
