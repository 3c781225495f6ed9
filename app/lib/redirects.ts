import type { FileRoutesByFullPath, FileRoutesByTo } from '../routeTree.gen'
import { buyNowHeaderTypes, type BuyNowHeaderType } from './buy-now-header-types'

/** A page of the route tree, as the router writes paths ('/referral/r/$advocateReferralCode'); index pages may keep their slash. */
type RoutePath = keyof FileRoutesByTo | keyof FileRoutesByFullPath

// The buy-now page's header types are what the legacy paths' ?headerType= may say; their own module, so the routes'
// search validation (on every first load) does not carry the redirect table (decision 049).
export { buyNowHeaderTypes, type BuyNowHeaderType }

type LegacyRedirect = {
  /** Legacy path: `:name` takes one segment, a final `*` takes the rest (or nothing). */
  from: string
  to: RoutePath
  search?: { headerType: BuyNowHeaderType }
}

/** SPEC.md §2: every legacy path and where it goes, with history replaced. */
export const legacyRedirects = [
  { from: '/fmn-offer-wall', to: '/fmn/offer-wall' },
  { from: '/modal-loop-holidays', to: '/loop/modal/holidays' },
  { from: '/modal-loop-mothers-day', to: '/loop/mothers-day' },
  { from: '/modal-loop-mothers-day-b', to: '/loop/mothers-day-b' },
  { from: '/modal-loop', to: '/loop/modal' },
  { from: '/modal-loop-new-user', to: '/loop/modal/new-user' },
  { from: '/loop-store/*', to: '/loop/store/' },
  { from: '/modal-loop-fathers-day', to: '/loop/fathers-day' },
  { from: '/modal-loop-grandparents-day', to: '/loop/grandparents-day' },
  { from: '/photo-gifts', to: '/photo-products' },
  { from: '/refer/:advocateReferralCode', to: '/referral/refer/$advocateReferralCode' },
  {
    from: '/advocate/:advocateReferralCode/redemptions/:redemptionId',
    to: '/referral/advocate/$advocateReferralCode/redemptions/$redemptionId',
  },
  {
    from: '/advocate/:advocateReferralCode/redemptions/:redemptionId/past',
    to: '/referral/advocate/$advocateReferralCode/redemptions/$redemptionId/past',
  },
  { from: '/redeem', to: '/referral/redeem' },
  { from: '/r/:advocateReferralCode', to: '/referral/r/$advocateReferralCode' },
  { from: '/r0/:advocateReferralCode', to: '/referral/r0/$advocateReferralCode' },
  { from: '/photo-products-tou', to: '/photo-products/tou' },
  { from: '/pod-modal-milestone-1-month', to: '/photo-products/buy-now', search: { headerType: 'milestone-1-month' } },
  { from: '/pod-modal-milestone-3-month', to: '/photo-products/buy-now', search: { headerType: 'milestone-3-month' } },
  { from: '/pod-modal-milestone-6-month', to: '/photo-products/buy-now', search: { headerType: 'milestone-6-month' } },
  { from: '/pod-modal-milestone-9-month', to: '/photo-products/buy-now', search: { headerType: 'milestone-9-month' } },
  { from: '/pod-lp-child-birthday', to: '/photo-products/buy-now', search: { headerType: 'child-birthday' } },
  { from: '/pod-lp-adult-birthday', to: '/photo-products/buy-now', search: { headerType: 'adult-birthday' } },
] as const satisfies readonly LegacyRedirect[]

function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean)
}

function matchLegacy(pattern: string, pathname: string): Record<string, string> | null {
  const want = segmentsOf(pattern)
  const have = segmentsOf(pathname)
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!
    if (part === '*' && i === want.length - 1) return params
    const seg = have[i]
    if (seg === undefined) return null
    if (part.startsWith(':')) {
      let value: string
      try {
        value = decodeURIComponent(seg)
      } catch {
        return null
      }
      if (!value) return null
      params[part.slice(1)] = value
    } else if (part !== seg) {
      return null
    }
  }
  return have.length === want.length ? params : null
}

/**
 * Where a legacy path goes, as a same-origin href, or null when it is not a legacy path.
 * The query string travels along (campaign links carry market, uuid and data); the table's own search wins.
 */
export function resolveLegacyRedirect(pathname: string, search = ''): string | null {
  for (const entry of legacyRedirects as readonly LegacyRedirect[]) {
    const params = matchLegacy(entry.from, pathname)
    if (!params) continue
    const target = entry.to.replace(/\$([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
    const query = new URLSearchParams(search)
    for (const [key, value] of Object.entries(entry.search ?? {})) query.set(key, value)
    const qs = query.toString()
    return qs ? `${target}?${qs}` : target
  }
  return null
}
