import { useEffect, useRef } from 'react'
import type { advocateActions, generalActions, referredActions } from '~/contract/referral'
import { logUserAction } from './referral.functions'

type Metadata = Record<string, string | number | boolean | null>

type Logs = {
  advocate: (typeof advocateActions)[number]
  referred: (typeof referredActions)[number]
  general: (typeof generalActions)[number]
}

/** Records a referral user action (SPEC.md §6, §7). The log never interrupts the shopper: a lost entry is acceptable. */
export function logAction<L extends keyof Logs>(log: L, action: Logs[L], metadata: Metadata = {}) {
  const data = { log, action, metadata } as Parameters<typeof logUserAction>[0]['data']
  void logUserAction({ data }).catch(() => undefined)
}

/** Logs a page view once per mount, when `ready` (e.g. once the page knows who is looking). */
export function useLogOnce<L extends keyof Logs>(log: L | null, action: Logs[L], metadata: Metadata = {}) {
  const logged = useRef(false)
  const key = JSON.stringify(metadata)
  useEffect(() => {
    if (logged.current || !log) return
    logged.current = true
    logAction(log, action, JSON.parse(key) as Metadata)
  }, [log, action, key])
}
