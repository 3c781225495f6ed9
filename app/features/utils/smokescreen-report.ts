import { smokescreenProducts } from '~/contract/smokescreens'

export type SmokescreenTally = { product: string; waitlist: number; delivery: number; total: number; lastAt: string | null }

/** The report rows (one per product and kind) as one line per product, most wanted first; products nobody asked for come last with zeros. */
export function tallyByProduct(rows: { product: string; kind: 'waitlist' | 'delivery'; signups: number | string; lastAt: string | Date | null }[]): SmokescreenTally[] {
  const tallies = new Map<string, SmokescreenTally>(smokescreenProducts.map((product) => [product, { product, waitlist: 0, delivery: 0, total: 0, lastAt: null }]))
  for (const row of rows) {
    const tally = tallies.get(row.product) ?? { product: row.product, waitlist: 0, delivery: 0, total: 0, lastAt: null }
    const n = Number(row.signups)
    tally[row.kind] += n
    tally.total += n
    const at = row.lastAt === null ? null : new Date(row.lastAt).toISOString()
    if (at && (!tally.lastAt || at > tally.lastAt)) tally.lastAt = at
    tallies.set(row.product, tally)
  }
  return [...tallies.values()].sort((a, b) => b.total - a.total || b.waitlist - a.waitlist || a.product.localeCompare(b.product))
}
