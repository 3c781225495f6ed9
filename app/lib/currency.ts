/** SPEC.md §9: en-US currency formatting, one formatter with zero decimals and one with up to two. */
export const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
})

export const dollarsAndCents = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
})

export const formatWholeDollars = (amount: number) => wholeDollars.format(amount)
export const formatPrice = (amount: number) => dollarsAndCents.format(amount)

/**
 * Whole cents (the cart's totals) as dollars: whole amounts without decimals, others always with two
 * ($49.90, never $49.9, which the up-to-two formatter alone would print).
 */
export function formatCents(cents: number) {
  if (cents % 100 === 0) return wholeDollars.format(cents / 100)
  return dollarsAndCents
    .formatToParts(cents / 100)
    .map((part) => (part.type === 'fraction' ? part.value.padEnd(2, '0') : part.value))
    .join('')
}
