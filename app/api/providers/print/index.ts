import type { AppConfig } from '../../../../app.config'
import { LocalPrintProvider } from './local'
import { PrintifyClient, PrintifyProvider } from './printify'
import type { PrintProvider } from './provider'

/**
 * Printify when PRINTIFY_API_TOKEN and PRINTIFY_SHOP_ID are set; otherwise the local provider.
 * Printify's rate limit is per account, so one client (and its limiter) is shared per token.
 */
const printifyProviders = new Map<string, PrintifyProvider>()

export function printProviderFor(config: AppConfig): PrintProvider {
  const printify = config.printify
  if (!printify) return new LocalPrintProvider()
  const key = `${printify.apiToken}:${printify.shopId}:${printify.baseUrl}:${printify.dailyProducts}`
  let provider = printifyProviders.get(key)
  if (!provider) {
    provider = new PrintifyProvider(
      new PrintifyClient({ apiToken: printify.apiToken, shopId: printify.shopId, baseUrl: printify.baseUrl, dailyProducts: printify.dailyProducts }),
    )
    printifyProviders.set(key, provider)
  }
  return provider
}
