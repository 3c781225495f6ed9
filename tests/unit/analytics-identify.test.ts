import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/**
 * SPEC.md §7: when a uuid is present the session is identified with PostHog. PostHog
 * cannot be reached from here, so its browser client is replaced by one that records calls to the
 * documented posthog-js API (`init(token, config)`, `identify(distinctId)`, `capture(event, properties)`).
 */
const posthog = vi.hoisted(() => ({
  calls: [] as [string, ...unknown[]][],
}))
vi.mock('posthog-js', () => ({
  default: {
    init: (...args: unknown[]) => posthog.calls.push(['init', ...args]),
    identify: (...args: unknown[]) => posthog.calls.push(['identify', ...args]),
    capture: (...args: unknown[]) => posthog.calls.push(['capture', ...args]),
  },
}))

const UUID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'
const SID = '0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a'

beforeEach(() => {
  posthog.calls.length = 0
  vi.resetModules()
  vi.useFakeTimers()
  vi.stubGlobal('window', { location: { pathname: '/egifts', href: 'https://keepsake.example/egifts?uuid=' + UUID } })
  vi.stubGlobal('document', { visibilityState: 'visible', addEventListener: () => {} })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

async function start(uuid: string | null) {
  const analytics = await import('../../app/lib/analytics')
  const sent: { event: string; uuid: string | null; properties: Record<string, unknown> }[][] = []
  analytics.startAnalytics({ sid: SID, uuid, market: 'us', data: null }, [
    { send: (events) => void sent.push(events) },
    analytics.posthogTransport('phc_test', 'https://eu.i.posthog.com'),
  ])
  analytics.track('DidViewEgift')
  await analytics.flushAnalytics()
  await vi.dynamicImportSettled()
  await Promise.resolve()
  return { sent: sent.flat(), calls: posthog.calls }
}

describe('PostHog identify (SPEC.md §7)', () => {
  it('identifies the session with its uuid, once, and every event carries it', async () => {
    const { sent, calls } = await start(UUID)
    expect(calls.filter((c) => c[0] === 'identify')).toEqual([['identify', UUID]])
    expect(calls[0]).toEqual(['init', 'phc_test', expect.objectContaining({ api_host: 'https://eu.i.posthog.com' })])
    expect(sent.map((e) => [e.event, e.uuid])).toEqual([
      ['DidIdentifySession', UUID],
      ['DidViewEgift', UUID],
    ])
    expect(sent[0]!.properties).toEqual({ uuid: UUID })
    expect(calls.filter((c) => c[0] === 'capture').map((c) => c[1])).toEqual(['DidIdentifySession', 'DidViewEgift'])
  })

  it('without a uuid nobody is identified', async () => {
    const { sent, calls } = await start(null)
    expect(calls.filter((c) => c[0] === 'identify')).toEqual([])
    expect(sent.map((e) => [e.event, e.uuid])).toEqual([['DidViewEgift', null]])
  })
})
