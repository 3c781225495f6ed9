/**
 * Where to follow a parcel: the provider's own tracking URL when it gave one (http(s) only), otherwise
 * the carrier's page for a number we recognise (UPS 1Z…, which the local print shop issues), else none.
 * One rule for the shipping e-mail and the orders page, so the page links every number the e-mail links (issue 32).
 */
export function trackingLinkFor(trackingNumber: string | null, trackingUrl: string | null): string | null {
  if (trackingUrl && /^https?:\/\//i.test(trackingUrl)) return trackingUrl
  if (!trackingNumber) return null
  const number = trackingNumber.replace(/\s+/g, '').toUpperCase()
  if (/^1Z[0-9A-Z]{16}$/.test(number)) return `https://www.ups.com/track?tracknum=${encodeURIComponent(number)}`
  return null
}
