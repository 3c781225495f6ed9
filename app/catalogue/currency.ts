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

/** Whole cents (the cart's totals) as dollars with both decimals: $49.90, $10.00, never $49.9. */
export function formatCents(cents: number) {
  const text = dollarsAndCents.format(cents / 100)
  if (/\.\d\d$/.test(text)) return text
  return /\.\d$/.test(text) ? `${text}0` : `${text}.00`
}

/** An amount as people say it: "$50" for whole dollars, "$7.50" otherwise (gift and offer amounts). */
export const formatAmount = (cents: number) => (cents % 100 === 0 ? formatWholeDollars(cents / 100) : formatCents(cents))
