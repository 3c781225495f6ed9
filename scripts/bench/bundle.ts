/**
 * npm run bench:bundle — the JavaScript each area's landing page loads first, gzip-compressed,
 * measured in Chromium against the production build. Prints a table; never fails on a size.
 *
 * Beside it, the floor: a bare TanStack Start app (Router, Query and the SSR integration, one route,
 * the project's own vite.config.ts and node_modules), generated and built in a temporary folder,
 * served the same way and loaded the same way. Each landing is also shown as a ratio to that floor
 * (docs/decisions/004). BENCH_PORT moves the servers (the store on it, the floor on the next port).
 *
 * The measuring is scripts/bench/first-load.ts's, shared with the bundle budget test. `-- --record` writes what
 * it measured into bundle-budget.json (each page's total and chunks) and keeps each budget as it was: a budget
 * is raised by hand, in a commit that says why (decision 046).
 */
import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { chromiumLaunch } from '../../playwright.config.ts'
import { budgetFile, firstLoadJs, landingPages, projectRoot, readBudget, recordOf, startServer, startStore, type BundleBudget } from './first-load.ts'

const PORT = Number(process.env.BENCH_PORT ?? 3190)
const FLOOR_PORT = PORT + 1
const base = `http://localhost:${PORT}`
const TARGET_KB = 100
const withTarget = new Set(['/photo-products', '/loop', '/referral/r/GRAN-7Q4X'])
const pages = landingPages.map((page) => ({ path: page, target: withTarget.has(page) ? TARGET_KB : null }))
const record = process.argv.includes('--record')
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

buildFloor()
rmSync('.data/bench-bundle', { recursive: true, force: true })
const servers: ChildProcess[] = []
const rows: string[][] = []
const recorded: Record<string, ReturnType<typeof recordOf>> = {}
let browser: Browser | undefined
process.once('exit', () => servers.forEach((server) => server.kill()))
try {
  servers.push(await startStore(PORT, '.data/bench-bundle'))
  servers.push(await startServer(['serve.mjs'], { cwd: floorDir, env: { PORT: String(FLOOR_PORT), NODE_ENV: 'production' }, ready: 'is serving' }))
  browser = await chromium.launch(chromiumLaunch)
  const floor = await firstLoadJs(browser, `http://localhost:${FLOOR_PORT}/`, { hydrates: false })
  rows.push(['floor: bare Start + Router + Query', String(floor.scripts.length), floor.rawKb.toFixed(1), floor.gzipKb.toFixed(1), '1.00×', '—', '—'])
  for (const { path: page, target } of pages) {
    const load = await firstLoadJs(browser, base + page)
    const { rawKb: raw, gzipKb: gzip } = load
    recorded[page] = recordOf(load)
    rows.push([
      page,
      String(load.scripts.length),
      raw.toFixed(1),
      gzip.toFixed(1),
      `${(gzip / floor.gzipKb).toFixed(2)}×`,
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

if (record) {
  const budget: BundleBudget = readBudget()
  for (const [page, measured] of Object.entries(recorded)) {
    budget.pages[page] = { budgetKb: budget.pages[page]?.budgetKb ?? Math.ceil(measured.measuredKb * 1.03), ...measured }
  }
  writeFileSync(budgetFile, `${JSON.stringify(budget, null, 2)}\n`)
  console.log(`Recorded each page's chunks in ${path.relative(process.cwd(), budgetFile)} (budgets unchanged).`)
}
