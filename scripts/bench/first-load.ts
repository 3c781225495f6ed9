/**
 * What a page loads first, measured the one way: `npm run bench:bundle` (scripts/bench/bundle.ts) prints it,
 * and the bundle budget test (tests/unit/bundle-budget.test.ts) holds each area landing to bundle-budget.json
 * with it (decision 046). Every script a page loads until it is hydrated and the network is idle, in Chromium,
 * against the production build, each by its chunk name (its file name without the content hash), raw and gzip.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser } from 'playwright-core'

export const projectRoot = path.resolve(import.meta.dirname, '../..')

/** The area landings and the two second pages the budget holds, in the order the bench prints them. */
export const landingPages = ['/photo-products', '/loop', '/referral/r/GRAN-7Q4X', '/photo-products/photos', '/referral', '/fmn', '/utils', '/egifts'] as const

/** The chunk that carries classic zod and its JSON-Schema code (vite.config.ts): never part of a first load. */
export const CLASSIC_ZOD_CHUNK = 'zod-classic'

export type Script = { url: string; chunk: string; rawKb: number; gzipKb: number }
export type FirstLoad = { scripts: Script[]; rawKb: number; gzipKb: number }

/** `assets/app-shell-4iiT_qim.js` → `app-shell`: a chunk's name, the same from one build to the next. */
export function chunkName(url: string): string {
  const file = new URL(url).pathname.split('/').pop() ?? url
  return file.replace(/\.js$/, '').replace(/-[A-Za-z0-9_-]{8}$/, '')
}

export const kb = (bytes: number) => bytes / 1024

/** Starts a server and resolves once it prints `ready`; rejects, saying to build first, should it exit before. */
export function startServer(command: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: string }): Promise<ChildProcess> {
  const child = spawn(process.execPath, command, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(options.ready)) resolve(child)
    })
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}; run npm run build first`)))
  })
}

/** The store's production build (scripts/serve.ts) on `port`, with a fresh data folder; fails when there is no build. */
export function startStore(port: number, dataDir: string): Promise<ChildProcess> {
  const server = path.join(projectRoot, 'dist/server/server.js')
  if (!existsSync(server)) return Promise.reject(new Error(`No production build (${server} is missing): run npm run build first`))
  return startServer(['scripts/serve.ts'], {
    cwd: projectRoot,
    env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: dataDir, NODE_ENV: 'production' },
    // After 'is serving' the store renders its demo photos (seconds of CPU): measure once that is done.
    ready: 'Album API',
  })
}

/**
 * Every script the page loads until it is hydrated and the network is idle. A store page loads its scripts after
 * its first paint (decision 024), so the network can fall idle before they start: the store's pages are waited for
 * until the root marks `<html data-hydrated>` (generously: the machine may be busy with other work).
 */
export async function firstLoadJs(browser: Browser, url: string, { hydrates = true } = {}): Promise<FirstLoad> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const bodies = new Map<string, Buffer>()
  page.on('response', async (response) => {
    // A modulepreload's fetch is not of type 'script', and the module script it warmed makes no request of its own.
    if (response.request().resourceType() !== 'script' && !new URL(response.url()).pathname.endsWith('.js')) return
    try {
      bodies.set(response.url(), await response.body())
    } catch {
      // A response without a body (a redirect) carries no script.
    }
  })
  try {
    await page.goto(url, { waitUntil: 'networkidle', timeout: 120_000 })
    if (hydrates) {
      await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'), undefined, { timeout: 120_000 })
      await page.waitForLoadState('networkidle', { timeout: 120_000 })
    }
  } finally {
    await context.close()
  }
  const scripts = [...bodies].map(([scriptUrl, body]) => ({
    url: scriptUrl,
    chunk: chunkName(scriptUrl),
    rawKb: kb(body.length),
    gzipKb: kb(gzipSync(body, { level: 9 }).length),
  }))
  scripts.sort((a, b) => b.gzipKb - a.gzipKb)
  return {
    scripts,
    rawKb: scripts.reduce((n, s) => n + s.rawKb, 0),
    gzipKb: scripts.reduce((n, s) => n + s.gzipKb, 0),
  }
}

/** bundle-budget.json: each page's budget (KB gzip, raised only by a commit that says why) and the chunks it loaded when recorded. */
export type BundleBudget = {
  note: string
  pages: Record<string, { budgetKb: number; measuredKb: number; chunks: Record<string, number> }>
}

export const budgetFile = path.join(projectRoot, 'bundle-budget.json')
export const readBudget = (): BundleBudget => JSON.parse(readFileSync(budgetFile, 'utf8')) as BundleBudget

const round = (n: number) => Math.round(n * 10) / 10

/** The recorded listing of one page's first load: its total and its chunks, KB gzip to one decimal. */
export function recordOf(load: FirstLoad) {
  return { measuredKb: round(load.gzipKb), chunks: Object.fromEntries(load.scripts.map((s) => [s.chunk, round(s.gzipKb)])) }
}

/**
 * What is wrong with one page's first load against its budget, in words, or null when it is within: the page,
 * its size, its budget, and the chunks that grew or are new beside the recorded listing (else its biggest chunks).
 * A first load that carries classic zod is wrong whatever its size.
 */
export function budgetProblem(page: string, load: FirstLoad, budget: BundleBudget['pages'][string] | undefined): string | null {
  const problems: string[] = []
  if (load.scripts.some((s) => s.chunk === CLASSIC_ZOD_CHUNK)) {
    problems.push(`${page} loads the ${CLASSIC_ZOD_CHUNK} chunk first (classic zod and its JSON-Schema code belong to lazy pages only)`)
  }
  if (!budget) return [...problems, `${page} has no budget in bundle-budget.json`].join('\n')
  if (load.gzipKb > budget.budgetKb) {
    const grew = load.scripts
      .map((s) => ({ ...s, was: budget.chunks[s.chunk] }))
      .filter((s) => s.was === undefined || s.gzipKb > s.was + 0.05)
      .map((s) =>
        s.was === undefined
          ? `  ${s.chunk}: new, ${s.gzipKb.toFixed(1)} KB`
          : `  ${s.chunk}: ${s.was.toFixed(1)} → ${s.gzipKb.toFixed(1)} KB (+${(s.gzipKb - s.was).toFixed(1)})`,
      )
    const biggest = load.scripts.slice(0, 5).map((s) => `  ${s.chunk}: ${s.gzipKb.toFixed(1)} KB`)
    problems.push(
      [
        `${page} loads ${load.gzipKb.toFixed(1)} KB gzip of script first, over its budget of ${budget.budgetKb} KB (recorded: ${budget.measuredKb} KB).`,
        ...(grew.length
          ? ['Chunks that grew or are new since bundle-budget.json was recorded:', ...grew]
          : ['No chunk grew beside the recording; its biggest:', ...biggest]),
      ].join('\n'),
    )
  }
  return problems.length ? problems.join('\n') : null
}
