import type { BuyNowHeaderType } from '~/lib/redirects'

type BuyNowHeader = { eyebrow: string; title: string; lead: string }

/** The header each milestone or birthday landing shows (SPEC.md §2 headerType values). */
export const buyNowHeaders: Record<BuyNowHeaderType | 'default', BuyNowHeader> = {
  'milestone-1-month': {
    eyebrow: 'One month already',
    title: 'Their first month, made to keep',
    lead: 'Tiny fingers, first smiles, long nights: hang the first month on the tree with two favourite photos.',
  },
  'milestone-3-month': {
    eyebrow: 'Three months',
    title: 'Three months of giggles, in your hand',
    lead: 'Pick two photos from the album and we will print an ornament the whole family can hold.',
  },
  'milestone-6-month': {
    eyebrow: 'Half a year',
    title: 'Six months of firsts',
    lead: 'First foods, first rolls, first laughs. Turn this half-birthday into an ornament that comes out every year.',
  },
  'milestone-9-month': {
    eyebrow: 'Nine months',
    title: 'Nine months in, and growing fast',
    lead: 'Capture this stage before it is gone: two photos, one ornament, a memory for every season.',
  },
  'child-birthday': {
    eyebrow: 'Happy birthday',
    title: 'A birthday they can hang on the tree',
    lead: 'Cake-covered grins and candle wishes, printed on a keepsake ornament for grandparents and godparents.',
  },
  'adult-birthday': {
    eyebrow: 'Happy birthday',
    title: 'Celebrate them with the photos you love',
    lead: 'A thoughtful gift for a grown-up birthday: two album photos on a glossy two-sided ornament.',
  },
  default: {
    eyebrow: 'Buy now',
    title: 'Your favourite photos, ready to hang',
    lead: 'Choose a tree, a star or a stocking, add two photos from your album and we will print and ship it in a gift box.',
  },
}
