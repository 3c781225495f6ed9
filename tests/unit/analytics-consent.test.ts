import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AnalyticsConsent } from '../../app/lib/analytics'

/**
 * The analytics choice: until the shopper answers nothing leaves the tab and PostHog (so session replay) is not
 * even fetched. posthog-js is replaced by a recorder of the documented API; its factory runs only when the
 * module is imported, so `imports` counts fetches of the client.
 */
const posthog = vi.hoisted(() => ({
  imports: 0,
  calls: [] as [string, ...unknown[]][],
}))
/** Registered afresh for every test (after resetModules), so the factory runs on the first import of each test. */
function mockPosthog() {
  vi.doMock('posthog-js', () => {
    posthog.imports++
    const record =
      (name: string) =>
      (...args: unknown[]) =>
        void posthog.calls.push([name, ...args])
    return {
      default: {
        init: record('init'),
        identify: record('identify'),
        capture: record('capture'),
        opt_in_capturing: record('opt_in_capturing'),
        opt_out_capturing: record('opt_out_capturing'),
        startSessionRecording: record('startSessionRecording'),
        stopSessionRecording: record('stopSessionRecording'),
      },
    }
  })
}

const UUID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'
const SID = '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a'
type Sent = { event: string; sid: string; uuid: string | null; path: string; properties: Record<string, unknown> }

let cookieWrites: string[]

beforeEach(() => {
  posthog.imports = 0
  posthog.calls.length = 0
  cookieWrites = []
  vi.resetModules()
  mockPosthog()
  vi.useFakeTimers()
  vi.stubGlobal('window', { location: { pathname: '/photo-products', href: 'https://keepsake.example/photo-products' } })
  vi.stubGlobal('location', { protocol: 'https:' })
  const document = { visibilityState: 'visible', addEventListener: () => {} }
  Object.defineProperty(document, 'cookie', { set: (value: string) => void cookieWrites.push(value), get: () => '' })
  vi.stubGlobal('document', document)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/** A tab whose page was rendered with `consent`, with the store's own transport and PostHog configured. */
async function startTab(consent: AnalyticsConsent, uuid: string | null = null) {
  const analytics = await import('../../app/lib/analytics')
  const sent: Sent[] = []
  analytics.startAnalytics(
    { sid: SID, uuid, market: 'US', data: null },
    [{ send: (events) => void sent.push(...events) }, analytics.posthogTransport('phc_test', 'https://eu.i.posthog.com')],
    { consent },
  )
  /** Lets every timer, flush and dynamic import finish, as a tab left alone for a while would. */
  const settle = async () => {
    await vi.advanceTimersByTimeAsync(5_000)
    await analytics.flushAnalytics()
    await vi.dynamicImportSettled()
    await vi.advanceTimersByTimeAsync(0)
  }
  return { analytics, sent, settle }
}

const names = (calls: [string, ...unknown[]][]) => calls.map((c) => c[0])

describe('analytics follow the shopper’s answer', () => {
  it('sends nothing anywhere and fetches no PostHog while the shopper has not answered', async () => {
    const { analytics, sent, settle } = await startTab('undecided', UUID)
    analytics.track('DidViewPage')
    analytics.track('DidAddProductToCart', { variantId: 72965 })
    await settle()
    expect(sent).toEqual([])
    expect(posthog.imports).toBe(0)
    expect(posthog.calls).toEqual([])
    expect(cookieWrites).toEqual([])
  })

  it('sends the held events, in order and with the session, as soon as the shopper allows analytics', async () => {
    const { analytics, sent, settle } = await startTab('undecided', UUID)
    analytics.track('DidViewPage')
    analytics.track('DidAddProductToCart', { variantId: 72965 })
    await settle()
    analytics.setAnalyticsConsent('granted')
    await settle()
    expect(sent.map((e) => [e.event, e.sid, e.uuid])).toEqual([
      ['DidIdentifySession', SID, UUID],
      ['DidViewPage', SID, UUID],
      ['DidAddProductToCart', SID, UUID],
    ])
    expect(sent[2]!.properties).toEqual({ variantId: 72965 })
    // PostHog is fetched now, starts with session replay on, is told of the new answer and identifies the campaign uuid.
    expect(posthog.imports).toBe(1)
    expect(posthog.calls[0]).toEqual([
      'init',
      'phc_test',
      expect.objectContaining({ api_host: 'https://eu.i.posthog.com', disable_session_recording: false, session_recording: { maskAllInputs: true } }),
    ])
    expect(names(posthog.calls)).toEqual(expect.arrayContaining(['opt_in_capturing', 'startSessionRecording', 'identify', 'capture']))
    expect(posthog.calls.filter((c) => c[0] === 'capture').map((c) => c[1])).toEqual(['DidIdentifySession', 'DidViewPage', 'DidAddProductToCart'])
    expect(cookieWrites).toEqual([`ks_consent=granted; Max-Age=${365 * 24 * 3600}; Path=/; SameSite=Lax; Secure`])
  })

  it('keeps sending what happens after the shopper allowed analytics', async () => {
    const { analytics, sent, settle } = await startTab('undecided')
    analytics.setAnalyticsConsent('granted')
    analytics.track('DidViewEgift')
    await settle()
    expect(sent.map((e) => e.event)).toEqual(['DidViewEgift'])
  })

  it('drops the held events when the shopper says no, sends nothing after, and never fetches PostHog', async () => {
    const { analytics, sent, settle } = await startTab('undecided', UUID)
    analytics.track('DidViewPage')
    analytics.setAnalyticsConsent('denied')
    analytics.track('DidViewPage')
    analytics.track('DidCompleteCheckout')
    await settle()
    expect(sent).toEqual([])
    expect(posthog.imports).toBe(0)
    expect(cookieWrites).toEqual([`ks_consent=denied; Max-Age=${365 * 24 * 3600}; Path=/; SameSite=Lax; Secure`])
    // Allowing later (on /privacy) sends only what happens from then on: the refused events are gone.
    analytics.setAnalyticsConsent('granted')
    analytics.track('DidViewEgift')
    await settle()
    expect(sent.map((e) => e.event)).toEqual(['DidViewEgift'])
  })

  it('a page rendered with "denied" sends nothing and never fetches PostHog', async () => {
    const { analytics, sent, settle } = await startTab('denied', UUID)
    analytics.track('DidViewPage')
    analytics.trackOnce('ks-test-once', 'DidPurchaseEgift')
    await settle()
    expect(sent).toEqual([])
    expect(posthog.imports).toBe(0)
    expect(posthog.calls).toEqual([])
  })

  it('a page rendered with "granted" sends at once and starts PostHog with replay, without re-asking it to opt in', async () => {
    const { analytics, sent, settle } = await startTab('granted', UUID)
    analytics.track('DidViewPage')
    await settle()
    expect(sent.map((e) => e.event)).toEqual(['DidIdentifySession', 'DidViewPage'])
    expect(posthog.calls[0]).toEqual(['init', 'phc_test', expect.objectContaining({ disable_session_recording: false })])
    expect(names(posthog.calls)).not.toContain('opt_in_capturing')
    expect(posthog.calls.filter((c) => c[0] === 'identify')).toEqual([['identify', UUID]])
  })

  it('turning analytics off stops sending at once and opts PostHog out of capture and replay', async () => {
    const { analytics, sent, settle } = await startTab('granted')
    analytics.track('DidViewPage')
    await settle()
    expect(sent.map((e) => e.event)).toEqual(['DidViewPage'])
    analytics.track('DidSelectPodTemplate')
    analytics.setAnalyticsConsent('denied')
    analytics.track('DidAddProductToCart')
    await settle()
    // Queued but not yet sent when the shopper said no: dropped too.
    expect(sent.map((e) => e.event)).toEqual(['DidViewPage'])
    expect(names(posthog.calls)).toEqual(expect.arrayContaining(['opt_out_capturing', 'stopSessionRecording']))
    expect(posthog.calls.filter((c) => c[0] === 'capture').map((c) => c[1])).toEqual(['DidViewPage'])
  })

  it('allowing again after turning off resumes: PostHog opts back in and replay restarts', async () => {
    const { analytics, sent, settle } = await startTab('granted')
    analytics.track('DidViewPage')
    await settle()
    analytics.setAnalyticsConsent('denied')
    await settle()
    posthog.calls.length = 0
    analytics.setAnalyticsConsent('granted')
    analytics.track('DidViewEgift')
    await settle()
    expect(sent.map((e) => e.event)).toEqual(['DidViewPage', 'DidViewEgift'])
    expect(names(posthog.calls)).toEqual(['opt_in_capturing', 'startSessionRecording', 'capture'])
    expect(posthog.imports).toBe(1)
  })

  it('an answer given before analytics started wins over the one the page was rendered with', async () => {
    const analytics = await import('../../app/lib/analytics')
    analytics.setAnalyticsConsent('granted')
    const sent: Sent[] = []
    analytics.startAnalytics({ sid: SID, uuid: null, market: null, data: null }, [{ send: (events) => void sent.push(...events) }], { consent: 'undecided' })
    analytics.track('DidViewPage')
    await vi.advanceTimersByTimeAsync(5_000)
    expect(sent.map((e) => e.event)).toEqual(['DidViewPage'])
    expect(analytics.getAnalyticsConsent()).toBe('granted')
  })

  it('holds at most 200 events while undecided', async () => {
    const { analytics, sent, settle } = await startTab('undecided')
    for (let i = 0; i < 250; i++) analytics.track('DidViewPage', { i })
    analytics.setAnalyticsConsent('granted')
    for (let i = 0; i < 20; i++) await settle()
    expect(sent).toHaveLength(200)
    expect(sent.at(-1)!.properties).toEqual({ i: 199 })
  })

  it('tells the consent bar and the privacy page when the answer changes', async () => {
    const { analytics } = await startTab('undecided')
    const seen: (AnalyticsConsent | null)[] = []
    const unsubscribe = analytics.subscribeAnalyticsConsent(() => seen.push(analytics.getAnalyticsConsent()))
    analytics.setAnalyticsConsent('denied')
    analytics.setAnalyticsConsent('granted')
    unsubscribe()
    analytics.setAnalyticsConsent('denied')
    expect(seen).toEqual(['denied', 'granted'])
  })

  it('reads only "granted" and "denied" from the cookie; anything else is still undecided', async () => {
    const { consentFromCookie } = await import('../../app/lib/analytics')
    expect(consentFromCookie('granted')).toBe('granted')
    expect(consentFromCookie('denied')).toBe('denied')
    expect(consentFromCookie('GRANTED')).toBe('undecided')
    expect(consentFromCookie('')).toBe('undecided')
    expect(consentFromCookie(undefined)).toBe('undecided')
  })
})
