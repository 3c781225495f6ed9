/**
 * npm run bench:bundle — the JavaScript each area's landing page loads first, gzip-compressed,
 * measured in Chromium against the production build. Prints a table; never fails on a size.
 *
 * Beside it, the floor: a bare TanStack Start app (Router, Query and the SSR integration, one route,
 * the project's own vite.config.ts and node_modules), generated and built in a temporary folder,
 * served the same way and loaded the same way. Each landing is also shown as a ratio to that floor
 * (docs/decisions/004). BENCH_PORT moves the servers (the store on it, the floor on the next port).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser } from 'playwright-core'
import { chromiumLaunch } from '../../playwright.config.ts'

const PORT = Number(process.env.BENCH_PORT ?? 3190)
const FLOOR_PORT = PORT + 1
const base = `http://localhost:${PORT}`
const TARGET_KB = 100
const pages = [
  { path: '/photo-products', target: TARGET_KB },
  { path: '/loop', target: TARGET_KB },
  { path: '/referral/r/GRAN-7Q4X', target: TARGET_KB },
  { path: '/photo-products/photos', target: null },
  { path: '/referral', target: null },
  { path: '/fmn', target: null },
  { path: '/utils', target: null },
  { path: '/egifts', target: null },
]

const projectRoot = path.resolve(import.meta.dirname, '../..')
const floorDir = path.join(tmpdir(), 'keepsake-floor')

/** The floor app's files: what any TanStack Start + Query page needs, and nothing of ours. */
const floorFiles: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'keepsake-floor', private: true, type: 'module' }, null, 2),
  // The same Vite settings as the store: its own config file, re-exported.
  'vite.config.ts': `export { default } from ${JSON.stringify(path.join(projectRoot, 'vite.config.ts'))}\n`,
  'app/router.tsx': `import { QueryClient } from '@tanstack/react-query'
import { createRouter } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { routeTree } from './routeTree.gen'

export function getRouter() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } })
  const router = createRouter({ routeTree, context: { queryClient }, defaultPreload: 'intent', scrollRestoration: true })
  setupRouterSsrQueryIntegration({ router, queryClient })
  return router
}
`,
  'app/routes/__root.tsx': `import type { QueryClient } from '@tanstack/react-query'
import { HeadContent, Outlet, Scripts, createRootRouteWithContext } from '@tanstack/react-router'
import type { ReactNode } from 'react'

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  head: () => ({ meta: [{ charSet: 'utf-8' }, { name: 'viewport', content: 'width=device-width, initial-scale=1' }, { title: 'Floor' }] }),
  shellComponent: Shell,
  component: Outlet,
})

function Shell({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        {children}
        <Scripts />
      </body>
    </html>
  )
}
`,
  'app/routes/index.tsx': `import { queryOptions, useSuspenseQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'

const greeting = queryOptions({ queryKey: ['greeting'], queryFn: async () => 'The floor' })

export const Route = createFileRoute('/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(greeting),
  component: function Floor() {
    const { data } = useSuspenseQuery(greeting)
    return <h1>{data}</h1>
  },
})
`,
  // The same kind of server as scripts/serve.ts: srvx, static files first, then the Start entry.
  'serve.mjs': `import { serve } from 'srvx'
import { staticMiddleware } from 'srvx/static'

const { default: entry } = await import(new URL('./dist/server/server.js', import.meta.url).href)
const statics = staticMiddleware({ dir: new URL('./dist/client', import.meta.url).pathname })
const server = serve({
  port: Number(process.env.PORT),
  hostname: '0.0.0.0',
  silent: true,
  middleware: [(request, next) => statics(request, next)],
  fetch: (request) => entry.fetch(request),
})
await server.ready()
console.log('The floor is serving')
`,
}

function buildFloor() {
  rmSync(floorDir, { recursive: true, force: true })
  for (const [file, text] of Object.entries(floorFiles)) {
    mkdirSync(path.dirname(path.join(floorDir, file)), { recursive: true })
    writeFileSync(path.join(floorDir, file), text)
  }
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(floorDir, 'node_modules'), 'dir')
  const vite = path.join(projectRoot, 'node_modules/vite/bin/vite.js')
  const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: floorDir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (built.status !== 0) throw new Error(`building the floor app failed:\n${built.stdout}\n${built.stderr}`)
}

function start(command: string[], options: { cwd: string; env: NodeJS.ProcessEnv; ready: string }): Promise<ChildProcess> {
  const child = spawn(process.execPath, command, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(options.ready)) resolve(child)
    })
    child.on('exit', (code) => reject(new Error(`${command.join(' ')} exited with ${code}; run npm run build first`)))
  })
}

/**
 * Every script the page loads until it is hydrated and the network is idle: count, raw and gzip bytes. A store
 * page loads its scripts after its first paint (decision 024), so the network can fall idle before they start:
 * the store's pages are waited for until the root marks `<html data-hydrated>`.
 */
async function firstLoadJs(browser: Browser, url: string, { hydrates = true } = {}) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const bodies = new Map<string, Buffer>()
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return
    try {
      bodies.set(response.url(), await response.body())
    } catch {
      // A response without a body (a redirect) carries no script.
    }
  })
  await page.goto(url, { waitUntil: 'networkidle' })
  if (hydrates) {
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'), undefined, { timeout: 30_000 })
    await page.waitForLoadState('networkidle')
  }
  await context.close()
  return {
    scripts: bodies.size,
    raw: [...bodies.values()].reduce((n, b) => n + b.length, 0) / 1024,
    gzip: [...bodies.values()].reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0) / 1024,
  }
}

buildFloor()
rmSync('.data/bench-bundle', { recursive: true, force: true })
const servers: ChildProcess[] = []
const rows: string[][] = []
let browser: Browser | undefined
process.once('exit', () => servers.forEach((server) => server.kill()))
try {
  servers.push(
    await start(['scripts/serve.ts'], {
      cwd: process.cwd(),
      env: { PORT: String(PORT), PUBLIC_URL: base, DATA_DIR: '.data/bench-bundle', NODE_ENV: 'production' },
      // After 'is serving' the store renders its demo photos (seconds of CPU): measure once that is done.
      ready: 'Album API',
    }),
  )
  servers.push(await start(['serve.mjs'], { cwd: floorDir, env: { PORT: String(FLOOR_PORT), NODE_ENV: 'production' }, ready: 'is serving' }))
  browser = await chromium.launch(chromiumLaunch)
  const floor = await firstLoadJs(browser, `http://localhost:${FLOOR_PORT}/`, { hydrates: false })
  rows.push(['floor: bare Start + Router + Query', String(floor.scripts), floor.raw.toFixed(1), floor.gzip.toFixed(1), '1.00×', '—', '—'])
  for (const { path: page, target } of pages) {
    const { scripts, raw, gzip } = await firstLoadJs(browser, base + page)
    rows.push([
      page,
      String(scripts),
      raw.toFixed(1),
      gzip.toFixed(1),
      `${(gzip / floor.gzip).toFixed(2)}×`,
      target ? `${target}` : '—',
      target ? (gzip <= target ? 'within' : 'OVER') : '—',
    ])
  }
} finally {
  await browser?.close()
  for (const server of servers) server.kill()
}

const header = ['page', 'scripts', 'raw KB', 'gzip KB', 'vs floor', 'target KB', 'status']
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
console.log(line(header))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const row of rows) console.log(line(row))
