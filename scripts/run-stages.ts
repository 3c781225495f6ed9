/**
 * `npm test`: runs the given npm scripts one after another, stops at the first that fails, and prints
 * how long each took (CI's stage times: docs/decisions/027 and issue 18's 30-minute budget).
 */
import { spawnSync } from 'node:child_process'

const stages = process.argv.slice(2)
const times: [string, number, string][] = []
let failed: string | null = null
for (const stage of stages) {
  const started = performance.now()
  const { status } = spawnSync('npm', ['run', '--silent', stage], { stdio: 'inherit' })
  times.push([stage, performance.now() - started, status === 0 ? 'passed' : `failed (exit ${status})`])
  if (status !== 0) {
    failed = stage
    break
  }
}
const format = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`)
const total = times.reduce((sum, [, ms]) => sum + ms, 0)
console.log('\n| stage | time | result |\n|---|---|---|')
for (const [stage, ms, result] of times) console.log(`| ${stage} | ${format(ms)} | ${result} |`)
console.log(`| all | ${format(total)} | ${failed ? `stopped at ${failed}` : 'passed'} |`)
process.exit(failed ? 1 : 0)
