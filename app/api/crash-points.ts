/**
 * Test-only crash points. `KEEPSAKE_TEST_PAUSE_AT=<point>` makes the process stop for good when it
 * reaches that point, after writing the point's name to `KEEPSAKE_TEST_PAUSE_FILE`, so a crash test
 * can SIGKILL it at exactly that instant (tests/api/crash.test.ts). `KEEPSAKE_TEST_HOLD_AT=<point>[,<point>…]`
 * instead holds there for `KEEPSAKE_TEST_HOLD_MS` (default 5000) and then goes on, writing the marker
 * the same way, so a shutdown test can signal the process while that work is in flight
 * (tests/api/shutdown.test.ts). Without the variables, and always under NODE_ENV=production,
 * `crashPoint` does nothing.
 */
import fs from 'node:fs'

const testing = process.env.NODE_ENV !== 'production'
const pauseAt = testing ? process.env.KEEPSAKE_TEST_PAUSE_AT : undefined
const holdAt = new Set(testing ? (process.env.KEEPSAKE_TEST_HOLD_AT ?? '').split(',').filter(Boolean) : [])
const holdMs = Number(process.env.KEEPSAKE_TEST_HOLD_MS ?? 5000)

export function crashPoint(point: string): Promise<void> | undefined {
  if (holdAt.has(point)) {
    const marker = process.env.KEEPSAKE_TEST_PAUSE_FILE
    if (marker) fs.writeFileSync(marker, point)
    console.log(`[crash-point] holding at ${point} for ${holdMs} ms`)
    return new Promise<void>((resolve) => setTimeout(resolve, holdMs))
  }
  if (pauseAt === undefined || pauseAt !== point) return undefined
  const marker = process.env.KEEPSAKE_TEST_PAUSE_FILE
  if (marker) fs.writeFileSync(marker, point)
  console.log(`[crash-point] paused at ${point}`)
  return new Promise<void>(() => {})
}
