/**
 * Test-only crash points. `KEEPSAKE_TEST_PAUSE_AT=<point>` makes the process stop for good when it
 * reaches that point, after writing the point's name to `KEEPSAKE_TEST_PAUSE_FILE`, so a crash test
 * can SIGKILL it at exactly that instant (tests/api/crash.test.ts). Without the variable, and always
 * under NODE_ENV=production, `crashPoint` does nothing.
 */
import fs from 'node:fs'

const pauseAt = process.env.NODE_ENV === 'production' ? undefined : process.env.KEEPSAKE_TEST_PAUSE_AT

export function crashPoint(point: string): Promise<void> | undefined {
  if (pauseAt === undefined || pauseAt !== point) return undefined
  const marker = process.env.KEEPSAKE_TEST_PAUSE_FILE
  if (marker) fs.writeFileSync(marker, point)
  console.log(`[crash-point] paused at ${point}`)
  return new Promise<void>(() => {})
}
