import { textOrUndefined, uuidOrUndefined } from './search-params'

/**
 * SPEC.md §1, §3: session context read from the query string at start, plus a random sid.
 * Runs in every page's first load, so its checks are written out by hand (decision 004).
 */
export type SessionQuery = { market: string; uuid: string; data: string }

const MARKET = /^[A-Za-z]{2}(-[A-Za-z]{2})?$/
const sessionQueryChecks: { [K in keyof SessionQuery]: (value: unknown) => string | undefined } = {
  market: (value) => (typeof value === 'string' && MARKET.test(value) ? value : undefined),
  uuid: uuidOrUndefined,
  data: (value) => textOrUndefined(value, 2048, 1),
}

export type SessionContext = {
  market: string | null
  uuid: string | null
  data: string | null
  sid: string
}

const STORAGE_KEY = 'keepsake.session'

/** Reads market, uuid and data from a query string; each invalid value is dropped on its own. */
export function readSessionQuery(search: string | URLSearchParams): Partial<SessionQuery> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const out: Partial<SessionQuery> = {}
  for (const key of ['market', 'uuid', 'data'] as const) {
    const valid = sessionQueryChecks[key](params.get(key) ?? undefined)
    if (valid !== undefined) out[key] = valid
  }
  if (out.market) out.market = out.market.toUpperCase()
  return out
}

/** Values in the new query string win over what the tab already had; the sid lives as long as the tab. */
export function startSession(search: string, stored: string | null, newSid: () => string = () => crypto.randomUUID()): SessionContext {
  let previous: Partial<SessionContext> = {}
  try {
    previous = stored ? (JSON.parse(stored) as Partial<SessionContext>) : {}
  } catch {
    previous = {}
  }
  const fromQuery = readSessionQuery(search)
  const validSid = uuidOrUndefined(previous.sid)
  return {
    market: fromQuery.market ?? previous.market ?? null,
    uuid: fromQuery.uuid ?? previous.uuid ?? null,
    data: fromQuery.data ?? previous.data ?? null,
    sid: validSid ?? newSid(),
  }
}

/**
 * The query string the tab arrived with, taken when this module first runs (the app's first load),
 * before the router can rewrite the URL (a redirect, a search-param update) and drop market/uuid/data.
 */
const arrivalSearch = typeof window === 'undefined' ? '' : window.location.search

/** Browser only: starts (or resumes) the tab's session and keeps it in sessionStorage. */
export function startBrowserSession(): SessionContext {
  let stored: string | null = null
  try {
    stored = window.sessionStorage.getItem(STORAGE_KEY)
  } catch {
    stored = null
  }
  const session = startSession(arrivalSearch || window.location.search, stored)
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session))
  } catch {
    // Private mode or a locked-down web view: the session still lives in memory for this page.
  }
  return session
}
