import type { AnalyticsEvent, AnalyticsEventName } from '../contract/analytics'
import type { SessionContext } from './session-context'

type Properties = Record<string, string | number | boolean | null>

export type AnalyticsTransport = {
  send: (events: AnalyticsEvent[]) => void | Promise<void>
  identify?: (uuid: string) => void
  /** Sending begins: at start when the shopper agreed on an earlier visit (`justGranted` false), or as they agree in this tab. */
  start?: (justGranted: boolean) => void
  /** The shopper withdrew their agreement in this tab: whatever the transport records by itself stops now. */
  stop?: () => void
}

/** The shopper's answer to the analytics question; `undecided` until they answer (or after "not now"). */
export type AnalyticsConsent = 'granted' | 'denied' | 'undecided'

import { CONSENT_COOKIE, CONSENT_MAX_AGE_DAYS } from './consent-cookie'

export { CONSENT_COOKIE, CONSENT_MAX_AGE_DAYS }

export function consentFromCookie(value: string | null | undefined): AnalyticsConsent {
  return value === 'granted' || value === 'denied' ? value : 'undecided'
}

type AnalyticsState = {
  session: SessionContext | null
  transports: AnalyticsTransport[]
  queue: AnalyticsEvent[]
  timer: ReturnType<typeof setTimeout> | null
  /** null until startAnalytics or a choice says otherwise: events wait in the queue meanwhile. */
  consent: AnalyticsConsent | null
  /** The campaign uuid to identify with once sending is allowed. */
  identity: string | null
  /** The shopper said yes in this tab (not only on an earlier visit): transports re-apply it. */
  grantedHere: boolean
  listenersAttached: boolean
}

const FLUSH_AFTER_MS = 1500
const MAX_BATCH = 20
/** Events held while the shopper has not answered; a tab left undecided for hours must not grow without end. */
const MAX_HELD = 200

const state: AnalyticsState = {
  session: null,
  transports: [],
  queue: [],
  timer: null,
  consent: null,
  identity: null,
  grantedHere: false,
  listenersAttached: false,
}
const consentListeners = new Set<() => void>()

/**
 * Starts analytics for this tab; events tracked before this wait in the queue. `consent` is the answer the page
 * was rendered with (the `ks_consent` cookie); a caller that asks no question (a tool, a test) leaves it out.
 */
export function startAnalytics(session: SessionContext, transports: AnalyticsTransport[], options: { consent?: AnalyticsConsent } = {}) {
  state.session = session
  state.transports = transports
  // An answer given in this tab before the start is newer than the one the page was rendered with.
  state.consent ??= options.consent ?? 'granted'
  if (!state.listenersAttached) {
    state.listenersAttached = true
    // A tab put away may never come back: send what is queued while the page can still talk.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void flushAnalytics()
    })
  }
  if (state.consent === 'granted') beginSending(state.grantedHere)
  else if (state.consent === 'denied') state.queue.length = 0
  if (session.uuid) identify(session.uuid)
  notifyConsent()
}

/** SPEC.md §7: when a uuid is present the session is identified with the behaviour-analytics service. */
export function identify(uuid: string) {
  state.identity = uuid
  if (state.consent === 'granted' && state.session) for (const t of state.transports) t.identify?.(uuid)
  track('DidIdentifySession', { uuid })
}

/** Records a user action; the page path and URL are added to every event (SPEC.md §7). */
export function track(event: AnalyticsEventName, properties: Properties = {}) {
  if (typeof window === 'undefined') return
  if (state.consent === 'denied') return
  const sending = state.consent === 'granted'
  if (!sending && state.queue.length >= MAX_HELD) return
  const session = state.session
  state.queue.push({
    event,
    properties,
    path: window.location.pathname,
    url: window.location.href,
    sid: session?.sid ?? '00000000-0000-4000-8000-000000000000',
    uuid: session?.uuid ?? null,
    market: session?.market ?? null,
    occurredAt: new Date().toISOString(),
  })
  if (!sending) return
  if (state.queue.length >= MAX_BATCH) void flushAnalytics()
  else scheduleFlush()
}

/**
 * Records an event once per tab for `key` (a payment's thank-you page loaded again, or reloaded,
 * does not count the purchase twice).
 */
export function trackOnce(key: string, event: AnalyticsEventName, properties: Properties = {}) {
  try {
    if (sessionStorage.getItem(key)) return
    sessionStorage.setItem(key, new Date().toISOString())
  } catch {
    // Storage refused (private mode): the event is still sent, once for this page view.
  }
  track(event, properties)
}

/** The shopper's answer as this tab knows it; null before startAnalytics when no answer was given here. */
export function getAnalyticsConsent(): AnalyticsConsent | null {
  return state.consent
}

/** Calls `listener` whenever the answer changes (for useSyncExternalStore); returns the unsubscribe. */
export function subscribeAnalyticsConsent(listener: () => void) {
  consentListeners.add(listener)
  return () => void consentListeners.delete(listener)
}

/**
 * The shopper answers (the consent bar, the privacy page): remembered for a year in `ks_consent`, and in force at
 * once — granting sends what was held and starts the transports, denying drops the queue and stops them.
 */
export function setAnalyticsConsent(choice: 'granted' | 'denied') {
  writeConsentCookie(choice)
  const previous = state.consent
  state.consent = choice
  state.grantedHere = choice === 'granted'
  if (choice === 'granted') {
    if (previous !== 'granted' && state.session) beginSending(true)
  } else {
    state.queue.length = 0
    if (state.timer) clearTimeout(state.timer)
    state.timer = null
    if (previous === 'granted' && state.session) for (const t of state.transports) t.stop?.()
  }
  notifyConsent()
}

function writeConsentCookie(choice: 'granted' | 'denied') {
  if (typeof document === 'undefined') return
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `${CONSENT_COOKIE}=${choice}; Max-Age=${CONSENT_MAX_AGE_DAYS * 24 * 3600}; Path=/; SameSite=Lax${secure}`
}

function notifyConsent() {
  for (const listener of consentListeners) listener()
}

function beginSending(justGranted: boolean) {
  for (const t of state.transports) {
    t.start?.(justGranted)
    // Identified now: before the answer the uuid went nowhere.
    if (justGranted && state.identity) t.identify?.(state.identity)
  }
  scheduleFlush()
}

function scheduleFlush() {
  if (state.timer || state.queue.length === 0 || !state.session || state.consent !== 'granted') return
  state.timer = setTimeout(() => {
    state.timer = null
    void flushAnalytics()
  }, FLUSH_AFTER_MS)
}

export async function flushAnalytics() {
  if (!state.session || state.consent !== 'granted' || state.queue.length === 0) return
  // Events queued before the session started get its sid now.
  const batch = state.queue.splice(0, MAX_BATCH).map((e) => ({ ...e, sid: state.session!.sid, uuid: e.uuid ?? state.session!.uuid }))
  await Promise.all(
    state.transports.map(async (t) => {
      try {
        await t.send(batch)
      } catch {
        // Analytics never interrupts shopping; a lost batch is acceptable.
      }
    }),
  )
  if (state.queue.length) scheduleFlush()
}

type PostHog = (typeof import('posthog-js'))['default']

/** PostHog with session replay; its client is fetched only once the shopper has agreed, never before. */
export function posthogTransport(projectKey: string, host: string): AnalyticsTransport {
  let client: Promise<PostHog> | null = null
  const load = () =>
    (client ??= import('posthog-js').then(
      ({ default: posthog }) => {
        // Inputs masked explicitly, not by PostHog's default: the privacy page promises it.
        posthog.init(projectKey, {
          api_host: host,
          capture_pageview: false,
          disable_session_recording: false,
          session_recording: { maskAllInputs: true },
          persistence: 'sessionStorage',
        })
        return posthog
      },
      (error: unknown) => {
        // Not fetched (offline, blocked): the next event tries again.
        client = null
        throw error
      },
    ))
  const whenLoaded = (use: (posthog: PostHog) => void) => {
    void load()
      .then(use)
      .catch(() => undefined)
  }
  return {
    start: (justGranted) =>
      whenLoaded((posthog) => {
        if (!justGranted) return
        // PostHog remembers an earlier opt-out on its own; the shopper's new answer replaces it.
        posthog.opt_in_capturing({ captureEventName: false })
        posthog.startSessionRecording()
      }),
    send: async (events) => {
      const posthog = await load()
      for (const e of events) posthog.capture(e.event, { ...e.properties, $current_url: e.url, path: e.path, sid: e.sid, market: e.market })
    },
    identify: (uuid) => whenLoaded((posthog) => posthog.identify(uuid)),
    stop: () => {
      // Never loaded: nothing to stop, and nothing is fetched to stop it.
      if (!client) return
      void client
        .then((posthog) => {
          posthog.opt_out_capturing()
          posthog.stopSessionRecording()
        })
        .catch(() => undefined)
    },
  }
}
