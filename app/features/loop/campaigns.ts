import type { OrnamentShape } from '~/catalogue/ornaments'
import type { CampaignId } from './campaign-titles'

export type { CampaignId } from './campaign-titles'

export type Campaign = {
  eyebrow: string
  title: string
  lead: string
  cta: string
  /** Modal campaigns sit as a sheet inside the album app's web view, with a close action. */
  presentation: 'page' | 'sheet'
  tone: 'cream' | 'pine' | 'cranberry'
  /** The ornament the campaign sells: its artwork, and the designer its photos and CTA lead into. */
  shape: OrnamentShape
  /** Heading of the strip of the shopper's own album photos. */
  photosHeading: string
  /** Campaigns tested against each other share an experiment name. */
  experiment?: { name: string; variant: 'a' | 'b' }
}

/** The promotion campaigns of /loop: copy and artwork as data, one entry per page. */
export const campaigns = {
  modal: {
    eyebrow: 'New in Keepsake',
    title: 'Hold your favourite photos',
    lead: 'Your album is full of moments worth keeping. Turn two of them into a photo ornament the whole family can hang.',
    cta: 'Make an ornament',
    presentation: 'sheet',
    tone: 'cream',
    shape: 'tree',
    photosHeading: 'Ready to print, from your album',
  },
  'modal-holidays': {
    eyebrow: 'Holiday season',
    title: 'Deck the tree with this year’s memories',
    lead: 'A tree, a star or a stocking with your family’s best photos of the year, one photo on each of a matching pair, gift-boxed.',
    cta: 'Design a holiday ornament',
    presentation: 'sheet',
    tone: 'pine',
    shape: 'star',
    photosHeading: 'This year’s best, ready to hang',
  },
  'modal-new-user': {
    eyebrow: 'Welcome to Keepsake',
    title: 'Your first keepsake is a few taps away',
    lead: 'Pick two photos from the album you just started and see them on an ornament instantly, before you buy anything.',
    cta: 'Try it with my photos',
    presentation: 'sheet',
    tone: 'cream',
    shape: 'stocking',
    photosHeading: 'Straight from your new album',
  },
  'mothers-day': {
    eyebrow: 'Mother’s Day',
    title: 'For the one who took all the photos',
    lead: 'This year, put Mum in the picture. Two photos, one ornament she will bring out every season.',
    cta: 'Make Mum’s keepsake',
    presentation: 'page',
    tone: 'cranberry',
    shape: 'star',
    photosHeading: 'Photos she’d love to hold',
    experiment: { name: 'mothers-day-2026', variant: 'a' },
  },
  'mothers-day-b': {
    eyebrow: 'Mother’s Day',
    title: 'Say thank you with the moments you share',
    lead: 'From first steps to last week’s picnic: pick the photos that say it best and we will print them for her.',
    cta: 'Choose photos for Mum',
    presentation: 'page',
    tone: 'pine',
    shape: 'tree',
    photosHeading: 'Pick the moments that say it best',
    experiment: { name: 'mothers-day-2026', variant: 'b' },
  },
  'fathers-day': {
    eyebrow: 'Father’s Day',
    title: 'The dad jokes fade. The photos stay.',
    lead: 'Give Dad an ornament with his favourite people on it — printed, boxed and ready to hang.',
    cta: 'Make Dad’s keepsake',
    presentation: 'page',
    tone: 'pine',
    shape: 'stocking',
    photosHeading: 'His favourite people, from your album',
  },
  'grandparents-day': {
    eyebrow: 'Grandparents Day',
    title: 'Send the grandkids to Grandma’s tree',
    lead: 'Grandparents treasure every photo you share. This one they can hold, hang and show the neighbours.',
    cta: 'Make one for the grandparents',
    presentation: 'page',
    tone: 'cream',
    shape: 'tree',
    photosHeading: 'The ones the grandparents will show off',
  },
  store: {
    eyebrow: 'Keepsake store',
    title: 'Everything you can make from your album',
    lead: 'Ornaments today, with more keepsakes on the way. Bundles and seasonal offers appear here first.',
    cta: 'Shop ornaments',
    presentation: 'page',
    tone: 'cream',
    shape: 'star',
    photosHeading: 'Start from your favourites',
  },
} as const satisfies Record<CampaignId, Campaign>
