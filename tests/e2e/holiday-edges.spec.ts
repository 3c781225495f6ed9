import type { ChildProcess } from 'node:child_process'
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
let server: ChildProcess
let opensAt = 0
let closesAt = 0

test.beforeAll(async () => {
  test.setTimeout(120_000)
  // Time enough for the server to start and the tab to open before the window does.
  opensAt = Date.now() + 45_000
  closesAt = opensAt + 10_000
  server = await startShotsServer(port, `.data/e2e/holiday-edges`, {
    ROOT_OVERRIDES: JSON.stringify([{ from: new Date(opensAt).toISOString(), to: new Date(closesAt).toISOString() }]),
  })
})
test.afterAll(() => {
  server?.kill()
})

test('an open tab switches to the holiday root app when its window opens, and back when it closes', async ({ page }) => {
  test.setTimeout(180_000)
  await page.goto(`${base}/photo-products`)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
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
