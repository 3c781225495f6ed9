/**
 * npm run bench:bundle — the JavaScript each area's landing page loads first, gzip-compressed,
 * measured in Chromium against the production build. Prints a table; never fails on a size.
 */
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { chromiumLaunch } from '../../playwright.config.ts'

const PORT = 3190
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

rmSync('.data/bench-bundle', { recursive: true, force: true })
const server = spawn(process.execPath, ['scripts/serve.ts'], {
  env: { ...process.env, PORT: String(PORT), PUBLIC_URL: base, DATA_DIR: '.data/bench-bundle', NODE_ENV: 'production' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
await new Promise<void>((resolve, reject) => {
  server.stdout!.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('is serving')) resolve()
  })
  server.on('exit', (code) => reject(new Error(`server exited with ${code}; run npm run build first`)))
})

const browser = await chromium.launch(chromiumLaunch)
const rows: string[][] = []
try {
  for (const { path, target } of pages) {
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
    await page.goto(base + path, { waitUntil: 'networkidle' })
    const raw = [...bodies.values()].reduce((n, b) => n + b.length, 0)
    const gzip = [...bodies.values()].reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0)
    const kb = gzip / 1024
    rows.push([path, String(bodies.size), (raw / 1024).toFixed(1), kb.toFixed(1), target ? `${target}` : '—', target ? (kb <= target ? 'within' : 'OVER') : '—'])
    await context.close()
  }
} finally {
  await browser.close()
  server.kill()
}

const header = ['page', 'scripts', 'raw KB', 'gzip KB', 'target KB', 'status']
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
console.log(line(header))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const row of rows) console.log(line(row))
