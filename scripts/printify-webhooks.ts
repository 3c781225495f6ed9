/**
 * npm run printify:webhooks [-- <webhook url>]
 *
 * Subscribes the store to Printify's order webhooks (order:created, order:updated, order:sent-to-production,
 * order:shipment:created, order:shipment:delivered, order:canceled), each to PUBLIC_URL/v1/webhooks/printify
 * (or the URL given) and signed with PRINTIFY_WEBHOOK_SECRET. Subscriptions made before are updated, not
 * doubled, so it is safe to run on every deploy. Needs PRINTIFY_API_TOKEN, PRINTIFY_SHOP_ID and the secret.
 */
import { getConfig } from '../app.config'
import { PRINTIFY_WEBHOOK_PATH, PrintifyClient, syncPrintifyWebhooks } from '../app/api/providers/print/printify'
import { PrintProviderError } from '../app/api/providers/print/provider'

const config = getConfig()
const printify = config.printify
if (!printify) {
  console.error('Printify is not configured: set PRINTIFY_API_TOKEN and PRINTIFY_SHOP_ID.')
  process.exit(2)
}
if (!printify.webhookSecret) {
  console.error('Set PRINTIFY_WEBHOOK_SECRET (at least 16 characters): Printify signs each delivery with it and the store checks it.')
  process.exit(2)
}
const url = process.argv[2]?.trim() || `${config.publicUrl.replace(/\/+$/, '')}${PRINTIFY_WEBHOOK_PATH}`
if (!/^https?:\/\//.test(url) || !new URL(url).pathname.endsWith(PRINTIFY_WEBHOOK_PATH)) {
  console.error(`The webhook URL must be the store's ${PRINTIFY_WEBHOOK_PATH}, e.g. https://shop.example.com${PRINTIFY_WEBHOOK_PATH}; got ${url}`)
  process.exit(2)
}
const client = new PrintifyClient({ apiToken: printify.apiToken, shopId: printify.shopId, baseUrl: printify.baseUrl })
try {
  const steps = await syncPrintifyWebhooks(client, url, printify.webhookSecret)
  for (const step of steps) console.log(`${step.action.padEnd(17)} ${step.topic} (${step.id})`)
  console.log(`Printify shop ${printify.shopId}: ${steps.filter((s) => s.action !== 'removed-duplicate').length} order topics → ${url}`)
} catch (error) {
  if (!(error instanceof PrintProviderError)) throw error
  console.error(error.message)
  process.exitCode = 1
}
