/** SPEC.md §2: the buy-now page's header types, as `?headerType=` spells them (the legacy paths send them). */
export const buyNowHeaderTypes = [
  'milestone-1-month',
  'milestone-3-month',
  'milestone-6-month',
  'milestone-9-month',
  'child-birthday',
  'adult-birthday',
] as const
export type BuyNowHeaderType = (typeof buyNowHeaderTypes)[number]
