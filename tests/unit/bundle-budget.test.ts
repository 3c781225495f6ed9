/**
 * The bundle budget (issue 31, decision 046): each area landing's first load, measured as `npm run bench:bundle`
 * measures it (scripts/bench/first-load.ts), stays within bundle-budget.json. Runs against the production build,
 * which `npm test` makes before this stage; alone, it fails saying to build first rather than pass unmeasured.
 * A failure names the page, its size, its budget and the chunks that grew beside the recorded listing.
 */
import { rmSync } from 'node:fs'
import type { ChildProcess } from 'node:child_process'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumLaunch } from '../../playwright.config'
import { budgetProblem, CLASSIC_ZOD_CHUNK, firstLoadJs, landingPages, readBudget, startStore, type FirstLoad } from '../../scripts/bench/first-load'

/** Beside the browser suites' servers (E2E_PORT_BASE … +40): several checkouts can run this at once. */
const port = Number(process.env.E2E_PORT_BASE ?? 3100) + 70
const dataDir = '.data/bundle-budget'
const budget = readBudget()

let store: ChildProcess | undefined
let browser: Browser | undefined

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true })
  store = await startStore(port, dataDir)
  browser = await chromium.launch(chromiumLaunch)
}, 180_000)

afterAll(async () => {
  await browser?.close()
  store?.kill()
})

describe('first-load budget', () => {
  it.each(landingPages)('%s loads no more script first than bundle-budget.json allows', { timeout: 180_000 }, async (page) => {
    const load = await firstLoadJs(browser!, `http://localhost:${port}${page}`)
    expect(load.scripts.length, `${page} loaded no script at all`).toBeGreaterThan(0)
    expect(budgetProblem(page, load, budget.pages[page])).toBeNull()
  })

  it('has a budget for every page it measures, and nothing else', () => {
    expect(Object.keys(budget.pages).sort()).toEqual([...landingPages].sort())
  })
})

describe('the budget check', () => {
  const load = (chunks: Record<string, number>): FirstLoad => {
    const scripts = Object.entries(chunks).map(([chunk, gzipKb]) => ({ url: `http://x/assets/${chunk}-AbCdEf12.js`, chunk, rawKb: gzipKb * 3, gzipKb }))
    return { scripts, rawKb: 0, gzipKb: scripts.reduce((n, s) => n + s.gzipKb, 0) }
  }
  const recorded = { budgetKb: 100, measuredKb: 95, chunks: { index: 90, landing: 5 } }

  it('passes a page within its budget', () => {
    expect(budgetProblem('/p', load({ index: 91, landing: 5 }), recorded)).toBeNull()
  })

  it('fails a page over its budget with its size, the budget and the chunks that grew or are new', () => {
    const problem = budgetProblem('/p', load({ index: 98, landing: 5, extra: 3 }), recorded)
    expect(problem).toContain('/p loads 106.0 KB gzip of script first, over its budget of 100 KB')
    expect(problem).toContain('index: 90.0 → 98.0 KB (+8.0)')
    expect(problem).toContain('extra: new, 3.0 KB')
    expect(problem).not.toContain('landing:')
  })

  it('fails a first load that carries classic zod, whatever its size', () => {
    expect(budgetProblem('/p', load({ index: 80, [CLASSIC_ZOD_CHUNK]: 10 }), recorded)).toContain(`loads the ${CLASSIC_ZOD_CHUNK} chunk first`)
  })

  it('fails a page without a budget', () => {
    expect(budgetProblem('/new', load({ index: 80 }), undefined)).toContain('/new has no budget in bundle-budget.json')
  })
})
