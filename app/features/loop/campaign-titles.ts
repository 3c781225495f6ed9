/**
 * Each /loop campaign's page title: what the routes' `head` needs, kept apart from the campaigns' copy and
 * artwork (campaigns.ts) so that the route tree, which every page loads first, does not carry the whole table
 * (decision 049). campaigns.ts is keyed by these ids.
 */
export const campaignTitles = {
  modal: 'Hold your favourite photos — Keepsake',
  'modal-holidays': 'Holiday photo ornaments — Keepsake',
  'modal-new-user': 'Welcome to Keepsake — your first photo ornament',
  'mothers-day': 'Mother’s Day photo ornaments — Keepsake',
  'mothers-day-b': 'Thank Mum with your photos — Keepsake',
  'fathers-day': 'Father’s Day photo ornaments — Keepsake',
  'grandparents-day': 'Grandparents Day photo ornaments — Keepsake',
  store: 'The Keepsake store',
} as const

export type CampaignId = keyof typeof campaignTitles

/** A campaign route's <title>. */
export const campaignHead = (id: CampaignId) => ({ meta: [{ title: campaignTitles[id] }] })
