/** Where every gift's card art lives; the API uses the same file as the checkout line's image. */
export const EGIFT_CARD_ART = '/egifts/egift-card.svg'
