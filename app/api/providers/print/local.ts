import type { Mockup, PreviewProduct, PreviewProductInput, PrintProvider } from './provider'

/** The embedded print provider: our own renderer's print files and mockups are the product. */
export class LocalPrintProvider implements PrintProvider {
  readonly name = 'local' as const

  async createPreviewProduct(input: PreviewProductInput, localMockups: Mockup[]): Promise<PreviewProduct> {
    return { productId: input.previewId, mockups: localMockups }
  }
}
