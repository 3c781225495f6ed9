import { describe, expect, it } from 'vitest'
import { legacyRedirects, resolveLegacyRedirect } from '../../app/lib/redirects'

describe('the legacy redirect table (SPEC.md §2)', () => {
  it('holds every redirect of the spec exactly once', () => {
    expect(legacyRedirects).toHaveLength(23)
    expect(new Set(legacyRedirects.map((r) => r.from)).size).toBe(23)
  })

  it.each([
    ['/fmn-offer-wall', '/fmn/offer-wall'],
    ['/modal-loop-holidays', '/loop/modal/holidays'],
    ['/modal-loop-mothers-day', '/loop/mothers-day'],
    ['/modal-loop-mothers-day-b', '/loop/mothers-day-b'],
    ['/modal-loop', '/loop/modal'],
    ['/modal-loop-new-user', '/loop/modal/new-user'],
    ['/loop-store', '/loop/store/'],
    ['/loop-store/anything/at/all', '/loop/store/'],
    ['/modal-loop-fathers-day', '/loop/fathers-day'],
    ['/modal-loop-grandparents-day', '/loop/grandparents-day'],
    ['/photo-gifts', '/photo-products'],
    ['/refer/ABC123', '/referral/refer/ABC123'],
    ['/advocate/ABC123/redemptions/r9', '/referral/advocate/ABC123/redemptions/r9'],
    ['/advocate/ABC123/redemptions/r9/past', '/referral/advocate/ABC123/redemptions/r9/past'],
    ['/redeem', '/referral/redeem'],
    ['/r/ABC123', '/referral/r/ABC123'],
    ['/r0/ABC123', '/referral/r0/ABC123'],
    ['/photo-products-tou', '/photo-products/tou'],
    ['/pod-modal-milestone-1-month', '/photo-products/buy-now?headerType=milestone-1-month'],
    ['/pod-modal-milestone-3-month', '/photo-products/buy-now?headerType=milestone-3-month'],
    ['/pod-modal-milestone-6-month', '/photo-products/buy-now?headerType=milestone-6-month'],
    ['/pod-modal-milestone-9-month', '/photo-products/buy-now?headerType=milestone-9-month'],
    ['/pod-lp-child-birthday', '/photo-products/buy-now?headerType=child-birthday'],
    ['/pod-lp-adult-birthday', '/photo-products/buy-now?headerType=adult-birthday'],
  ])('sends %s to %s', (from, to) => {
    expect(resolveLegacyRedirect(from)).toBe(to)
  })

  it('tolerates a trailing slash on the legacy path', () => {
    expect(resolveLegacyRedirect('/redeem/')).toBe('/referral/redeem')
  })

  it('keeps the query string, the table’s headerType winning', () => {
    expect(resolveLegacyRedirect('/pod-lp-adult-birthday', '?headerType=evil&market=US')).toBe('/photo-products/buy-now?headerType=adult-birthday&market=US')
  })

  it('re-encodes parameters so a code cannot break out of its segment', () => {
    expect(resolveLegacyRedirect('/r/a%2F..%2Fadmin')).toBe('/referral/r/a%2F..%2Fadmin')
    expect(resolveLegacyRedirect('/r/%E0%A4%A')).toBeNull()
  })

  it('leaves other paths alone', () => {
    for (const path of ['/', '/photo-products', '/refer', '/refer/a/b', '/advocate/a/redemptions', '/r0', '/modal-loop-xyz', '/loop-storefront']) {
      expect(resolveLegacyRedirect(path)).toBeNull()
    }
  })
})
