/**
 * The cart's limits and the local checkout's test cards, without zod, so the cart and checkout pages
 * can use them without loading the contract's schemas (decision 004).
 */
/** A cart line holds at most this many of one design; a cart at most this many lines. */
export const MAX_QUANTITY_PER_LINE = 10
export const MAX_LINES_PER_CART = 20
/** Parcels to address book entries one cart may ship, besides the shopper's own. */
export const MAX_PARCELS_PER_CART = 10

/** The local provider's test cards (Stripe's numbers, so shoppers who know them feel at home). */
export const LOCAL_TEST_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002' } as const

/**
 * Why a checkout session ended when its cart changed while it was open (issue 15, bug 9): kept as the
 * session's lastError, so the checkout page can say so and offer the cart's new total.
 */
export const CART_CHANGED_MESSAGE = 'Your cart changed after this checkout opened, so we closed it. Nothing was charged.'

/**
 * Why a checkout ended when an address book entry one of its parcels ships to was changed or removed while it was open
 * (issue 42, item 4): it would have shipped to, and been taxed for, the address as it was.
 */
export const ADDRESS_CHANGED_MESSAGE = 'An address this checkout ships to changed after it opened, so we closed it. Nothing was charged.'

/** Why a checkout ended when the shopper's store credit grew while it was open (issue 29, bug 1): it would have charged more than the cart. */
export const CREDIT_CHANGED_MESSAGE = 'Your store credit changed after this checkout opened, so we closed it. Nothing was charged.'

/**
 * Why a change to the cart was refused (409) when the checkout of that cart was paid meanwhile, in another tab
 * (issue 43, item 8): the change was not saved, and the order is what was paid for.
 */
export const CART_PAID_MESSAGE = 'This cart was just paid in another tab or window, so this change was not saved. Your order is what you paid for.'
