import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { openDatabase } from '../../app/api/db/client'
import { jobs } from '../../app/api/db/schema'
import { freePort } from '../support/server-process'
import { expectNoAxeViolations, shootBothWidths, urlOf, waitForHydration } from './support'

/**
 * /utils/failed-jobs and the failed-jobs count on /utils/status (issue 18). The shared servers have no
 * failed job (a job needs minutes of backoff to run out of attempts), so one more server is started on
 * a data folder that already holds two, written before it starts (PGlite admits one process at a time).
 */
let server: ChildProcess | undefined
let dataDir: string
let origin: string
const failedAt = new Date('2026-11-22T15:04:00Z')

test.describe('failed jobs, for the people who run the store', () => {
  // One server for these tests, started once; screenshots at two widths take a while on a busy machine.
  test.describe.configure({ mode: 'serial', timeout: 90_000 })

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-failed-jobs-'))
    const database = await openDatabase({ databaseUrl: null, dataDir })
    await database.db.insert(jobs).values([
      {
        kind: 'submit-order',
        dedupeKey: 'submit-order:5f1c2a9e-6a7b-4c1d-9e2f-0a1b2c3d4e5f',
        payload: {},
        status: 'failed',
        attempts: 8,
        maxAttempts: 8,
        runAt: failedAt,
        lastError: 'Printify answered 503 Service Unavailable: the print provider is down for maintenance, try again later',
        createdAt: new Date(failedAt.getTime() - 2 * 3600_000),
        updatedAt: failedAt,
      },
      {
        kind: 'send-email',
        dedupeKey: 'send-email:egift-delivery:9c8b7a65-4321-4fed-8cba-9876543210ab',
        payload: {},
        status: 'failed',
        attempts: 8,
        maxAttempts: 8,
        runAt: new Date(failedAt.getTime() - 3600_000),
        lastError: '550 5.1.1 <grandma@example.com>: Recipient address rejected',
        createdAt: new Date(failedAt.getTime() - 3 * 3600_000),
        updatedAt: new Date(failedAt.getTime() - 3600_000),
      },
    ])
    await database.close()
    const port = await freePort()
    origin = `http://localhost:${port}`
    server = spawn(process.execPath, ['scripts/serve.ts'], {
      env: { ...process.env, PORT: String(port), PUBLIC_URL: origin, DATA_DIR: dataDir, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    for (let i = 0; i < 240; i++) {
      const up = await fetch(`${origin}/favicon.svg`).then(
        (r) => r.ok,
        () => false,
      )
      if (up) return
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    throw new Error('the server with failed jobs did not start')
  })

  test.afterAll(async () => {
    server?.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 500))
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  test('/utils/failed-jobs lists each failed job with its kind, key, attempts, last error and when, most recent first', async ({ page }) => {
    await page.goto(`${origin}/utils/failed-jobs`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed jobs')
    await expect(page.getByTestId('failed-jobs-total')).toHaveText('2 failed jobs')
    const items = page.getByTestId('failed-job')
    await expect(items.getByTestId('failed-job-kind')).toHaveText(['submit-order', 'send-email'])
    await expect(items.first().getByTestId('failed-job-key')).toHaveText('submit-order:5f1c2a9e-6a7b-4c1d-9e2f-0a1b2c3d4e5f')
    await expect(items.first().getByTestId('failed-job-attempts')).toHaveText('8 of 8')
    await expect(items.first().getByTestId('failed-job-error')).toContainText('Printify answered 503')
    await expect(items.first()).toContainText('Failed Nov 22, 2026, 3:04 PM UTC')
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'failed-jobs', 'failed-jobs')
  })

  test('/utils/status counts the failed jobs and, in demo mode, links to the list', async ({ page }) => {
    await page.goto(`${origin}/utils/status`)
    const row = page.getByTestId('jobs-failed')
    await expect(row.getByTestId('jobs-failed-count')).toHaveText('2')
    await expect(row).toContainText('2 failed')
    await expect(row).toContainText('[jobs] gave up')
    await waitForHydration(page)
    await row.getByRole('link', { name: 'See the failed jobs' }).click()
    await expect(page).toHaveURL(`${origin}/utils/failed-jobs`)
    await expect(page.getByTestId('failed-job')).toHaveCount(2)
    await page.goto(`${origin}/utils/status`)
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'status-with-failed-jobs', 'failed-jobs')
  })

  test('the help and tools index links to the list in demo mode', async ({ page }) => {
    await page.goto(`${origin}/utils`)
    await expect(page.getByRole('region', { name: 'Tools' }).getByRole('link', { name: /Failed jobs/ })).toHaveAttribute('href', '/utils/failed-jobs')
  })
})

test.describe('with no failed job', () => {
  test.describe.configure({ timeout: 90_000 })

  test('the list says so and the status page counts none', async ({ page }) => {
    await page.goto('/utils/failed-jobs')
    await expect(page.getByRole('heading', { level: 2, name: 'No failed jobs' })).toBeVisible()
    await expect(page.getByTestId('failed-jobs-total')).toHaveText('0 failed jobs')
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'failed-jobs-empty', 'failed-jobs')
    await page.goto('/utils/status')
    await expect(page.getByTestId('jobs-failed-count')).toHaveText('0')
    await expect(page.getByTestId('jobs-failed')).toContainText('None failed')
    await expect(page.getByTestId('jobs-failed').getByRole('link')).toHaveCount(0)
  })

  test('with demo mode off, the list is absent and the status page still counts', async ({ page }) => {
    const res = await page.goto(urlOf('demoOff', '/utils/failed-jobs'))
    expect(res?.status()).toBe(404)
    await page.goto(urlOf('demoOff', '/utils/status'))
    await expect(page.getByTestId('jobs-failed-count')).toHaveText('0')
    await page.goto(urlOf('demoOff', '/utils'))
    await expect(page.getByRole('link', { name: /Failed jobs/ })).toHaveCount(0)
  })
})
