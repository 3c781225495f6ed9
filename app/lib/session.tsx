import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { startBrowserSession, type SessionContext } from './session-context'

const SessionCtx = createContext<SessionContext | null>(null)

/** Starts the tab's session once, in the browser (the server has no sid to offer). */
export function SessionProvider({ children, onStart }: { children: ReactNode; onStart?: (session: SessionContext) => void }) {
  const [session, setSession] = useState<SessionContext | null>(null)
  useEffect(() => {
    const started = startBrowserSession()
    setSession(started)
    onStart?.(started)
    // Once per page load: the session is read from the URL the shopper arrived with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return <SessionCtx.Provider value={session}>{children}</SessionCtx.Provider>
}

/** The session context (market, uuid, data, sid); null until the browser has started it. */
export function useSessionContext() {
  return useContext(SessionCtx)
}
