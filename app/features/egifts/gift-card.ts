import { EGIFT_MAX_SEND_DAYS } from '~/catalogue/egift-terms'
import { addDays, todayHere } from '~/lib/dates'

/** Where every gift's card art lives; the API uses the same file as the checkout line's image. */
export const EGIFT_CARD_ART = '/egifts/egift-card.svg'

/** The range of days a gift can be scheduled for: today to a year ahead (the send date the API checks is the buyer's). */
export const sendOnRange = (today = todayHere()) => ({ min: today, max: addDays(today, EGIFT_MAX_SEND_DAYS) })
