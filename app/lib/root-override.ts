export type RootOverrideWindow = { from: string; to: string; app: string }

/** SPEC.md §1: the window, if any, in which a different root application replaces the store. Half-open: [from, to). */
export function activeRootOverride(windows: readonly RootOverrideWindow[], now: Date): RootOverrideWindow | null {
  const t = now.getTime()
  return windows.find((w) => Date.parse(w.from) <= t && t < Date.parse(w.to)) ?? null
}

/**
 * How long until the next edge (a window's start or end) after `now`, in milliseconds, or null when
 * no window starts or ends later. An open tab reloads the shell then, so it switches at the edge
 * instead of on the next full page load (issue 15, bug 8).
 */
export function msUntilNextRootOverrideEdge(windows: readonly RootOverrideWindow[], now: Date): number | null {
  const t = now.getTime()
  const later = windows.flatMap((w) => [Date.parse(w.from), Date.parse(w.to)]).filter((edge) => edge > t)
  return later.length > 0 ? Math.min(...later) - t : null
}
