/**
 * What the screenshot scripts (scripts/screenshots-*.ts) share: a production server of the current
 * build on a fresh demo database, and demo sign-in for a browser context.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { BrowserContext, Page } from 'playwright-core'

/** Starts `scripts/serve.ts` on `port` with an empty `dataDir` (and any `env` of its own) and waits until it answers. */
export async function startShotsServer(port: number, dataDir: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const base = `http://localhost:${port}`
  await rm(dataDir, { recursive: true, force: true })
  const server = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, PORT: String(port), PUBLIC_URL: base, DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${base}/favicon.svg`)).ok) return server
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  server.kill()
  throw new Error(`the server did not start on ${base}`)
}

export const readJson = <T>(res: { json: () => Promise<unknown> }) => res.json() as Promise<T>

/** Signs the context in as a demo account through the demo API (its cookies are the browser's). */
export async function demoSignIn(base: string, context: BrowserContext, firstName: string) {
  const { users } = await readJson<{ users: { id: string; firstName: string }[] }>(await context.request.get(`${base}/v1/demo/users`))
  const user = users.find((u) => u.firstName === firstName)!
  await context.request.post(`${base}/v1/demo/sessions`, { data: { userId: user.id }, headers: { origin: base } })
}

/** Runs axe on the page and prints its violations; a serious or critical one fails the script (exit code 1). */
export async function axeReport(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page } as never).analyze()
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  console.log(
    `${name}: axe violations ${violations.length}, serious ${serious.length}${violations.length ? ` (${violations.map((v) => `${v.impact} ${v.id}`).join(', ')})` : ''}`,
  )
  if (serious.length) process.exitCode = 1
}

/** A screenshot of the viewport into `folder`/`name`.png, with `scrollTo` (a selector) scrolled into view first, then axe. */
export async function shootViewport(page: Page, folder: string, name: string, scrollTo?: { selector: string; block: 'start' | 'center' }) {
  if (scrollTo) await page.locator(scrollTo.selector).evaluate((el, block) => el.scrollIntoView({ block }), scrollTo.block)
  await page.screenshot({ path: path.join(folder, `${name}.png`) })
  await axeReport(page, name)
}
