import os from 'node:os'
import { defineConfig, devices, type ReporterDescription } from '@playwright/test'
// A leaf module with no imports: plain-node scripts (bench:bundle) load this config too.
import { CONSENT_COOKIE } from './app/lib/consent-cookie.ts'

/** One build, four servers: the store, the store in maintenance, inside a root-override window, and with demo mode off. */
const now = Date.now()
const hour = 60 * 60 * 1000
/** Secrets given to the main server; tests prove they never reach a browser. */
export const serverSecrets = {
  SESSION_SECRET: 'e2e-session-secret-that-must-never-leak-0123456789',
  S3_SECRET_ACCESS_KEY: 'e2e-s3-secret-that-must-never-leak',
}
/** E2E_PORT_BASE moves the four servers (several checkouts testing on one machine). */
const base = Number(process.env.E2E_PORT_BASE ?? 3100)
/**
 * A server is ready for tests when its album API is: /v1/openapi.json answers only once the database is open
 * and the demo albums are seeded (the first request waits for that). The maintenance server answers every API
 * call 503, which Playwright takes for "not started", so its static files say it is up; its tests only look at the
 * maintenance screen.
 */
const apiReady = '/v1/openapi.json'
export const servers = {
  // The local print provider moves parcels along every 3 s here, so a test can see an order ship. TRUST_PROXY=1, as
  // behind production's load balancer: the `login` fixture (tests/e2e/fixtures.ts) makes each new shopper from an
  // address of its own, so a whole run's shoppers stay under the demo API's 60 new guests an hour per address.
  main: { port: base, env: { ...serverSecrets, LOCAL_FULFILMENT_STEP_SECONDS: '3', TRUST_PROXY: '1' }, ready: apiReady },
  maintenance: { port: base + 1, env: { MAINTENANCE_MODE: 'true' }, ready: '/favicon.svg' },
  override: {
    port: base + 2,
    env: { ROOT_OVERRIDES: JSON.stringify([{ from: new Date(now - hour).toISOString(), to: new Date(now + 6 * hour).toISOString() }]) },
    ready: apiReady,
  },
  // PostHog configured (unreachable from here: the CSP test answers its calls), so its client runs under the CSP.
  demoOff: { port: base + 3, env: { DEMO_MODE: 'false', POSTHOG_KEY: 'phc_e2e_test_key' }, ready: apiReady },
} as const

/**
 * Workers for the cores this machine has: one more than the cores, because the suite's processes wait on page
 * loads, idle networks and timers for about half their time (decision 036 measured 1.08 cores busy of 2 with two
 * workers, and chose three). At most 8: past that the four shared servers, not the cores, are what tests wait on.
 */
export function workersFor(cores: number) {
  return Math.max(1, Math.min(cores + 1, 8))
}

/** The run's own reporter, and the slowest tests listed after it (tests/support/slowest-tests-reporter.ts). */
export const reporters: ReporterDescription[] = [[process.env.CI ? 'line' : 'list'], ['./tests/support/slowest-tests-reporter.ts']]

/**
 * Browser tests start as a shopper who already allowed analytics, so the consent bar covers no button and events
 * flow; privacy.spec.ts starts without it. The cookie is set for both host names the tests use.
 */
export const consentGranted = {
  cookies: ['localhost', '127.0.0.1'].map((domain) => ({
    name: CONSENT_COOKIE,
    value: 'granted',
    domain,
    path: '/',
    expires: Math.floor(now / 1000) + 365 * 24 * 3600,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax' as const,
  })),
  origins: [],
}

/**
 * What a test keeps of a failure. A trace records screenshots and DOM snapshots of every action while the test runs,
 * whether it passes or not: measured on designer.spec (12 tests, two workers), 227 s of CPU with traces and 85 s
 * without, servers included (decision 080). CI's stages keep both cores busy, so there a trace is recorded only on the
 * retry of a failed test, and every failure keeps a screenshot; a run on a developer's machine keeps a failure's trace.
 */
export const failureEvidence = process.env.CI
  ? ({ trace: 'on-first-retry', screenshot: 'only-on-failure' } as const)
  : ({ trace: 'retain-on-failure' } as const)

export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--enable-unsafe-swiftshader',
    '--use-angle=swiftshader',
  ],
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: workersFor(os.availableParallelism()),
  // CI shares a 2-core machine with other work; one retry there, and Playwright still reports a retried pass as flaky.
  retries: process.env.CI ? 1 : 0,
  // A test waits for the state it needs, not for a clock: these limits only bound a test that is stuck. CI's machine can
  // be three times slower than a quiet one (stop 35's run: a 60 s test took 184 s), so they are wide.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: reporters,
  use: {
    baseURL: `http://localhost:${servers.main.port}`,
    launchOptions: chromiumLaunch,
    storageState: consentGranted,
    ...failureEvidence,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunch } }],
  webServer: Object.entries(servers).map(([name, server]) => ({
    command: `rm -rf .data/e2e/${name} && node scripts/serve.ts`,
    url: `http://localhost:${server.port}${server.ready}`,
    reuseExistingServer: false,
    // Four servers open a fresh database each and three of them seed the demo albums (64 photos a family, copied
    // into each one's storage) at once, on a machine that may have two cores: minutes, not seconds, when it is busy.
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(server.port),
      PUBLIC_URL: `http://localhost:${server.port}`,
      DATA_DIR: `.data/e2e/${name}`,
      NODE_ENV: 'production',
      ...server.env,
    },
  })),
})
