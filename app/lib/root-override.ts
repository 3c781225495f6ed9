export type RootOverrideWindow = { from: string; to: string; app: string }

/** SPEC.md §1: the window, if any, in which a different root application replaces the store. Half-open: [from, to). */
export function activeRootOverride(windows: readonly RootOverrideWindow[], now: Date): RootOverrideWindow | null {
  const t = now.getTime()
  return windows.find((w) => Date.parse(w.from) <= t && t < Date.parse(w.to)) ?? null
}
