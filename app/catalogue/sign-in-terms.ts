/**
 * The sign-in link's terms (issue 16), without zod, so the sign-in form can tell them without loading the
 * contract's schemas (decisions 004, 046).
 */
/** A one-time sign-in link, e-mailed to the address of an album account, works this long. */
export const SIGN_IN_LINK_TTL_MINUTES = 15
/** Links one client may ask for in an hour, to any addresses: so one client spends at most this much of an address's allowance. */
export const SIGN_IN_LINKS_PER_HOUR = 5
/**
 * Links e-mailed to one address in an hour, from all clients together: it keeps the mail to an address bounded,
 * and is four clients' worth, so a stranger asking from one client cannot lock the owner out (issue 42, item 14).
 */
export const SIGN_IN_LINKS_PER_ADDRESS_PER_HOUR = 20
