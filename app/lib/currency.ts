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
