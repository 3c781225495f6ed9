/**
 * `npm test`'s first step: the browser tests drive Debian's Chromium (Playwright cannot download its own
 * here). When it is missing, install it with apt-get if this user may (root, or sudo without a password);
 * otherwise stop with one line saying what to run. CHROMIUM_PATH points at another Chromium.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const DEFAULT_CHROMIUM = '/usr/bin/chromium'

export type Machine = {
  exists: (path: string) => boolean
  isRoot: boolean
  /** Runs a command with inherited output; answers its exit code. */
  run: (command: string, args: string[]) => number
  env: Record<string, string | undefined>
}

export type Outcome = { ok: true; path: string; installed: boolean } | { ok: false; message: string }

const apt = ['sh', '-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium']

export function ensureChromium(machine: Machine): Outcome {
  const wanted = machine.env.CHROMIUM_PATH || DEFAULT_CHROMIUM
  if (machine.exists(wanted)) return { ok: true, path: wanted, installed: false }
  if (machine.env.CHROMIUM_PATH) {
    return { ok: false, message: `CHROMIUM_PATH is ${wanted}, and there is no file there: point it at a Chromium, or unset it to use ${DEFAULT_CHROMIUM}.` }
  }
  const hint = `The browser tests need Debian's Chromium at ${DEFAULT_CHROMIUM}: run \`sudo apt-get install chromium\` (or set CHROMIUM_PATH), then npm test again.`
  if (!machine.exists('/usr/bin/apt-get')) return { ok: false, message: hint }
  const canSudo = !machine.isRoot && machine.exists('/usr/bin/sudo') && machine.run('sudo', ['-n', 'true']) === 0
  if (!machine.isRoot && !canSudo) return { ok: false, message: hint }
  console.log(`Chromium is missing; installing Debian's chromium with apt-get${machine.isRoot ? '' : ' (sudo)'}…`)
  const [command, ...args] = machine.isRoot ? apt : ['sudo', ...apt]
  const code = machine.run(command!, args)
  if (code !== 0 || !machine.exists(DEFAULT_CHROMIUM)) return { ok: false, message: `apt-get could not install chromium (exit ${code}). ${hint}` }
  return { ok: true, path: DEFAULT_CHROMIUM, installed: true }
}

if (import.meta.main) {
  const outcome = ensureChromium({
    exists: existsSync,
    isRoot: process.getuid?.() === 0,
    run: (command, args) => spawnSync(command, args, { stdio: 'inherit' }).status ?? 1,
    env: process.env,
  })
  if (!outcome.ok) {
    console.error(outcome.message)
    process.exit(1)
  }
  if (outcome.installed) console.log(`Chromium installed at ${outcome.path}.`)
}
