import type { AnalyticsEvent } from '../../contract/analytics'
import type { Database } from '../db/client'
import { analyticsEvents } from '../db/schema'

/** The local analytics transport's sink: events as the browser batched them, tied to the user when signed in. */
export async function recordAnalyticsEvents(db: Database, events: AnalyticsEvent[], userId: string | null, now: Date) {
  await db.insert(analyticsEvents).values(
    events.map((e) => ({
      name: e.event,
      properties: e.properties,
      path: e.path,
      url: e.url,
      sid: e.sid,
      uuid: e.uuid,
      market: e.market,
      userId,
      occurredAt: new Date(e.occurredAt),
      receivedAt: now,
    })),
  )
  return events.length
}
