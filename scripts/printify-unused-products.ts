/**
 * npm run printify:unused-products [-- --apply]
 *
 * Lists the products in the Printify shop that no order used (before issue 50 every preview made one) and, with
 * --apply, deletes them and archives the uploads only they used. A dry run by default: it lists and changes nothing.
 * Needs PRINTIFY_API_TOKEN and PRINTIFY_SHOP_ID. Each call goes through the client's limiter (600 a minute).
 */
import { getConfig } from '../app.config'
import { PrintifyClient, unusedPrintifyProducts } from '../app/api/providers/print/printify'
import { PrintProviderError } from '../app/api/providers/print/provider'

const args = process.argv.slice(2)
const unknown = args.filter((arg) => arg !== '--apply')
if (unknown.length > 0) {
  console.error(`Unknown argument ${unknown[0]}: the only one is --apply (delete the products listed; without it, a dry run).`)
  process.exit(2)
}
const apply = args.includes('--apply')
const printify = getConfig().printify
if (!printify) {
  console.error('Printify is not configured: set PRINTIFY_API_TOKEN and PRINTIFY_SHOP_ID.')
  process.exit(2)
}
const client = new PrintifyClient({ apiToken: printify.apiToken, shopId: printify.shopId, baseUrl: printify.baseUrl })
try {
  const result = await unusedPrintifyProducts(client, { apply })
  for (const product of result.unused) console.log(`${product.id}  ${product.createdAt ?? '—'}  ${product.title}  (${product.uploadIds.length} upload(s))`)
  console.log(
    `Printify shop ${printify.shopId}: ${result.products} product(s), ${result.orders} order(s); ${result.unused.length} product(s) no order used.` +
      (apply
        ? ` Deleted ${result.deleted.length}; archived ${result.archivedUploads.length} upload(s) no kept product uses.`
        : ' Dry run: nothing was changed; run with --apply to delete them.'),
  )
} catch (error) {
  if (!(error instanceof PrintProviderError)) throw error
  console.error(error.message)
  process.exitCode = 1
}
