/**
 * A print-on-demand provider, as the order code sees it (previews are the store's own: no provider call). Two
 * implementations: `local` (our own renderer's files are the product; default) and `printify` (PRINTIFY_API_TOKEN).
 */
import type { ShippingMethodId } from '../../../catalogue/shipping'

export type PrintFilePosition = 'front' | 'back'

/**
 * A print file as an order line carries it to the provider: a signed URL the provider may fetch for days (from a
 * private bucket too: the API serves it), and the PNG itself for a provider that cannot reach the URL.
 */
export type PrintFile = {
  position: PrintFilePosition
  /** A stable file name, e.g. `<previewId>-front.png`. */
  fileName: string
  /** Absolute, signed URL the provider may fetch the file from (services/print-files.ts). */
  url: string
  /** The PNG itself, read when a provider uploads by content. */
  read: () => Promise<Buffer>
}

/** One ordered design: the provider's product (blueprint, print provider, variant) and its print files. */
export type PrintOrderLine = {
  /** Our preview id: the design's reference on our side. */
  previewId: string
  title: string
  description: string
  blueprintId: number
  printProviderId: number
  variantId: number
  quantity: number
  /** Whole cents, for a provider that makes a product of its own for the line. */
  priceCents: number
  printFiles: PrintFile[]
}

export type PrintOrderInput = {
  /** Our order id: Printify's external_id, so a retried submission finds the first one. */
  orderId: string
  reference: string
  lines: PrintOrderLine[]
  /**
   * An earlier try may have made the order (this is not the submission's first run: a retry after an unclear failure, or
   * a run taken over from a worker that died). Only then does the provider look for it first; a first try costs one call.
   */
  mayExist: boolean
  /** The parcel's shipping method, as the shopper chose and paid for it. */
  shippingMethod: ShippingMethodId
  address: { name: string; email: string; phone: string; line1: string; line2: string; city: string; state: string; postalCode: string; country: string }
}

/** A product (Printify blueprint and print provider) and one of the store's shipping methods. */
export type ShippingCostQuery = { blueprintId: number; printProviderId: number; method: ShippingMethodId }

/** What the provider charges to ship a variant to a country by the method asked: the first item, and each further one (cents). */
export type ShippingCost = { variantId: number; country: string; firstItemCents: number; additionalItemsCents: number }

/** What became of asking the provider to start production, or to cancel: done now, done before, or too late for it. */
export type ProductionAnswer = 'sent' | 'already-sent'
export type CancelAnswer = 'canceled' | 'already-canceled' | 'too-late'

export interface PrintProvider {
  readonly name: 'local' | 'printify'
  /**
   * Sends an order to the provider with each line's print files, and answers the provider's order id. Safe to call
   * again after an unclear failure: an order already submitted under `orderId` is found, never created twice. A preview
   * never reaches the provider: its product is made by the order (issue 50).
   */
  submitOrder(input: PrintOrderInput): Promise<{ providerOrderId: string }>
  /** Starts production of an order the provider holds (Printify's send_to_production); an order already on its way answers 'already-sent'. */
  sendToProduction(providerOrderId: string): Promise<ProductionAnswer>
  /** Cancels an order the provider holds and has not started; 'too-late' once production has begun. */
  cancelOrder(providerOrderId: string): Promise<CancelAnswer>
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
