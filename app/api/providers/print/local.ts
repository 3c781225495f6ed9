import type { CancelAnswer, PrintOrderInput, PrintProvider, ProductionAnswer } from './provider'

/** The embedded print provider: our own renderer's print files are the product, and production is advanced by jobs. */
export class LocalPrintProvider implements PrintProvider {
  readonly name = 'local' as const

  /** The local print shop's order id is derived from ours, so a second submission is the same order. */
  async submitOrder(input: PrintOrderInput): Promise<{ providerOrderId: string }> {
    return { providerOrderId: `local-${input.orderId}` }
  }

  /** The local print shop starts as soon as it is asked; its steps are the advance-order jobs. */
  async sendToProduction(_providerOrderId: string): Promise<ProductionAnswer> {
    return 'sent'
  }

  /** Nothing is made locally before the advance-order jobs run, and they skip a canceled parcel. */
  async cancelOrder(_providerOrderId: string): Promise<CancelAnswer> {
    return 'canceled'
  }
}
