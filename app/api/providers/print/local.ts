import type { Mockup, PreviewProduct, PreviewProductInput, PrintOrderInput, PrintProvider } from './provider'

/** The embedded print provider: our own renderer's print files and mockups are the product. */
export class LocalPrintProvider implements PrintProvider {
  readonly name = 'local' as const

  async createPreviewProduct(input: PreviewProductInput, localMockups: Mockup[]): Promise<PreviewProduct> {
    return { productId: input.previewId, mockups: localMockups }
  }

  /** The local print shop's order id is derived from ours, so a second submission is the same order. Production is advanced by jobs. */
  async submitOrder(input: PrintOrderInput): Promise<{ providerOrderId: string }> {
    return { providerOrderId: `local-${input.orderId}` }
  }
}
