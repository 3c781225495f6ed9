/**
 * npm run order:refund -- <order reference or id>
 *
 * Records that an order was refunded (after the money went back through the payment provider): the
 * order stops wherever it is, any store credit it spent returns to the shopper's ledger, and a
 * referral reward it approved is voided unless it was already credited. Running it twice changes
 * nothing more. With the embedded database, stop the store first (PGlite has one process at a time).
 */
import { eq } from 'drizzle-orm'
import { getConfig } from '../app.config'
import { createApi } from '../app/api/app'
import { openDatabase } from '../app/api/db/client'
import { claimEmbeddedDatabaseOrExit } from '../app/api/db/lock'
import { orders } from '../app/api/db/schema'
import { refundOrder } from '../app/api/services/checkout'

const ref = process.argv[2]?.trim() ?? ''
if (!/^KS-[0-9A-F]{8}$/i.test(ref) && !/^[0-9a-f-]{36}$/i.test(ref)) {
  console.error('Usage: npm run order:refund -- KS-XXXXXXXX (an order reference, or an order id)')
  process.exit(2)
}
const config = getConfig()
claimEmbeddedDatabaseOrExit(config)
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts })
try {
  const isId = ref.length === 36
  const [order] = await database.db
    .select()
    .from(orders)
    .where(isId ? eq(orders.id, ref) : eq(orders.reference, ref.toUpperCase()))
  if (!order) {
    console.error(`No order ${ref}`)
    process.exitCode = 1
  } else {
    const api = createApi({ db: database.db, config, now: () => new Date() })
    const before = order.status
    const after = await refundOrder(api.deps, order.id)
    console.log(before === 'refunded' ? `Order ${order.reference} was already refunded` : `Order ${order.reference}: ${before} → ${after.status}`)
    await api.deps.rateLimiter.close()
  }
} finally {
  await database.close()
}
