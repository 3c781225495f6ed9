/**
 * `npm test`: runs the given npm scripts in order, stops after the first group in which one fails, and
 * prints how long each took (CI's stage times: issue 18's 30-minute budget). An argument of the form
 * `a+b+c` is a group whose scripts run at the same time, each line of their output prefixed with its
 * name; the next argument starts when the whole group has finished. Decision 036 says which stages share
 * the machine and why.
 */
import { spawn } from 'node:child_process'
import readline from 'node:readline'

type Result = { stage: string; ms: number; result: string }

function run(stage: string, prefixed: boolean): Promise<Result> {
  const started = performance.now()
  const child = spawn('npm', ['run', '--silent', stage], { stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
  if (prefixed) {
    for (const [stream, out] of [
      [child.stdout!, process.stdout],
      [child.stderr!, process.stderr],
    ] as const) {
      readline.createInterface({ input: stream }).on('line', (line) => out.write(`[${stage}] ${line}\n`))
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const result = code === 0 ? 'passed' : `failed (${signal ?? `exit ${code}`})`
      resolve({ stage, ms: performance.now() - started, result })
    })
  })
}

const format = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`)

const results: Result[] = []
const groups: { label: string; ms: number }[] = []
let failed: string | null = null
for (const group of process.argv.slice(2)) {
  const stages = group.split('+')
  const started = performance.now()
  const done = await Promise.all(stages.map((stage) => run(stage, stages.length > 1)))
  groups.push({ label: stages.join(' ∥ '), ms: performance.now() - started })
  results.push(...done)
  const failure = done.find((r) => r.result !== 'passed')
  if (failure) {
    failed = failure.stage
    break
  }
}

console.log('\n| stage | time | result |\n|---|---|---|')
for (const { stage, ms, result } of results) console.log(`| ${stage} | ${format(ms)} | ${result} |`)
console.log('\n| step (stages at the same time) | wall time |\n|---|---|')
for (const { label, ms } of groups) console.log(`| ${label} | ${format(ms)} |`)
const total = groups.reduce((sum, g) => sum + g.ms, 0)
console.log(`| all | ${format(total)} (${failed ? `stopped at ${failed}` : 'passed'}) |`)
process.exit(failed ? 1 : 0)
