import { defineConfig } from '@playwright/test'
import { chromiumLaunch, consentGranted, failureEvidence, reporters, servers } from './playwright.config.ts'

/** The proxy's port: the store's public address (E2E_PORT_BASE moves it with the other suites' servers). */
export const INSTANCES_PROXY_PORT = servers.main.port + 40

/**
 * The two-instance suite (tests/instances): it starts its own servers, proxy, bucket and database, so it
 * needs no webServer; one worker, because its tests share those instances in order.
 */
export default defineConfig({
  testDir: 'tests/instances',
  workers: 1,
  retries: 0,
  // As the browser suite's (playwright.config.ts): a page on a loaded 2-core machine may take seconds to navigate, and
  // Playwright's 5 s default failed a checkout's navigation that was still finishing (a fresh-clone CI run, 2026-12-04).
  expect: { timeout: 15_000 },
  reporter: reporters,
  use: {
    baseURL: `http://localhost:${INSTANCES_PROXY_PORT}`,
    launchOptions: chromiumLaunch,
    storageState: consentGranted,
    viewport: { width: 1280, height: 900 },
    ...failureEvidence,
  },
})
