import type { AnalyticsEvent, AnalyticsEventName } from '../contract/analytics'
import type { SessionContext } from './session-context'

type Properties = Record<string, string | number | boolean | null>

export type AnalyticsTransport = {
  send: (events: AnalyticsEvent[]) => void | Promise<void>
  identify?: (uuid: string) => void
}

type AnalyticsState = {
  session: SessionContext | null
  transports: AnalyticsTransport[]
  queue: AnalyticsEvent[]
  timer: ReturnType<typeof setTimeout> | null
}

const FLUSH_AFTER_MS = 1500
const MAX_BATCH = 20

const state: AnalyticsState = { session: null, transports: [], queue: [], timer: null }

/** Starts analytics for this tab; events tracked before this wait in the queue. */
export function startAnalytics(session: SessionContext, transports: AnalyticsTransport[]) {
  state.session = session
  state.transports = transports
  if (session.uuid) identify(session.uuid)
  // A tab put away may never come back: send what is queued while the page can still talk.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void flushAnalytics()
  })
  scheduleFlush()
}

/** SPEC.md §7: when a uuid is present the session is identified with the behaviour-analytics service. */
export function identify(uuid: string) {
  for (const t of state.transports) t.identify?.(uuid)
  track('DidIdentifySession', { uuid })
}

/** Records a user action; the page path and URL are added to every event (SPEC.md §7). */
export function track(event: AnalyticsEventName, properties: Properties = {}) {
  if (typeof window === 'undefined') return
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

function scheduleFlush() {
  if (state.timer || state.queue.length === 0 || !state.session) return
  state.timer = setTimeout(() => {
    state.timer = null
    void flushAnalytics()
  }, FLUSH_AFTER_MS)
}

export async function flushAnalytics() {
  if (!state.session || state.queue.length === 0) return
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

/** PostHog with session replay, fetched only when a project key is configured. */
export function posthogTransport(projectKey: string, host: string): AnalyticsTransport {
  const client = import('posthog-js').then(({ default: posthog }) => {
    posthog.init(projectKey, { api_host: host, capture_pageview: false, disable_session_recording: false, persistence: 'sessionStorage' })
    return posthog
  })
  return {
    send: async (events) => {
      const posthog = await client
      for (const e of events) posthog.capture(e.event, { ...e.properties, $current_url: e.url, path: e.path, sid: e.sid, market: e.market })
    },
    identify: (uuid) => {
      void client.then((posthog) => posthog.identify(uuid))
    },
  }
}
