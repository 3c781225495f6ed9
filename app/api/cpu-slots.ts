/**
 * This process's CPU slots for renders: at most two at once (they are CPU-bound, so this is per machine by design),
 * in two priorities. A shopper's render (a preview, a source crop) takes a free slot first; a background render (a
 * design's print files, decision 078) starts only while no shopper's render runs or waits, and never more than one
 * runs, so a burst of print renders never queues in front of a preview and leaves it a slot when one comes.
 */
export const MAX_CONCURRENT_RENDERS = 2
/** Background renders at once: one, so the other slot is always a shopper's. */
export const MAX_BACKGROUND_RENDERS = 1

export type RenderPriority = 'shopper' | 'background'

let running = 0
let backgroundRunning = 0
const waiting: Record<RenderPriority, (() => void)[]> = { shopper: [], background: [] }

function canStart(priority: RenderPriority) {
  if (running >= MAX_CONCURRENT_RENDERS) return false
  if (priority === 'shopper') return true
  return waiting.shopper.length === 0 && running === backgroundRunning && backgroundRunning < MAX_BACKGROUND_RENDERS
}

/** Starts whoever may start now: shoppers first, then one background render. */
function wake() {
  while (waiting.shopper.length > 0 && canStart('shopper')) take('shopper', waiting.shopper.shift()!)
  while (waiting.background.length > 0 && canStart('background')) take('background', waiting.background.shift()!)
}

function take(priority: RenderPriority, start: () => void) {
  running++
  if (priority === 'background') backgroundRunning++
  start()
}

export async function withCpuSlot<T>(priority: RenderPriority, work: () => Promise<T>): Promise<T> {
  if (canStart(priority) && waiting[priority].length === 0) take(priority, () => {})
  else await new Promise<void>((resolve) => waiting[priority].push(resolve))
  try {
    return await work()
  } finally {
    running--
    if (priority === 'background') backgroundRunning--
    wake()
  }
}

/** What the slots hold now (for tests and the metrics page). */
export const cpuSlotState = () => ({ running, backgroundRunning, waiting: { shopper: waiting.shopper.length, background: waiting.background.length } })
