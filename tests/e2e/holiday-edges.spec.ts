import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { expect, test } from '@playwright/test'
import { servers } from '../../playwright.config'
import { startShotsServer } from '../../scripts/support/shots'

/**
 * The holiday root app switches without a full page load. A store of its own, whose
 * root-override window opens a few seconds after the tab is open and closes a few seconds later: the
 * open tab switches at both edges without a reload.
 */
const port = servers.main.port + 10
const base = `http://localhost:${port}`
let server: ChildProcess | undefined
test.afterAll(() => stop(server))

/** Stops a store and waits for it to be gone, so the next one on its port is the one that answers. */
async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill()
  await exited
}

test('an open tab switches to the holiday root app when its window opens, and back when it closes', async ({ page }) => {
  test.setTimeout(600_000)
  // The window opens a while after the store starts. A slow machine may start the store and open the tab only after
  // that: then the store starts again with a window twice as far away, until the tab is open before the window is.
  let opensAt = 0
  let closesAt = 0
  for (let lead = 45_000; ; lead *= 2) {
    opensAt = Date.now() + lead
    closesAt = opensAt + 10_000
    await stop(server)
    server = await startShotsServer(port, `.data/e2e/holiday-edges`, {
      ROOT_OVERRIDES: JSON.stringify([{ from: new Date(opensAt).toISOString(), to: new Date(closesAt).toISOString() }]),
    })
    await page.goto(`${base}/photo-products`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // Whatever the tab shows, it must have been painted before the window opened for this store to be the test.
    if (Date.now() < opensAt - 5_000) break
    expect(lead, 'the store started and the tab opened in time for a window 3 minutes away').toBeLessThan(180_000)
  }
  await expect(page.getByTestId('holiday-root')).toHaveCount(0)
  let loads = 0
  page.on('load', () => loads++)

  await expect(page.getByTestId('holiday-root')).toBeVisible({ timeout: opensAt - Date.now() + 30_000 })
  expect(Date.now()).toBeGreaterThanOrEqual(opensAt)
  await expect(page.getByTestId('holiday-root')).toHaveCount(0, { timeout: closesAt - Date.now() + 30_000 })
  expect(Date.now()).toBeGreaterThanOrEqual(closesAt)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // Neither switch was a page load.
  expect(loads).toBe(0)
})
