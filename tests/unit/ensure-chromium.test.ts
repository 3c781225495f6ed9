import { describe, expect, it } from 'vitest'
import { DEFAULT_CHROMIUM, ensureChromium, type Machine } from '../../scripts/ensure-chromium'

/** A machine with the given files; records the commands run, each answering `exitCode` (apt-get "installs" Chromium). */
function machine(files: string[], { isRoot = false, exitCode = 0, sudoWorks = false, env = {} as Machine['env'] } = {}) {
  const present = new Set(files)
  const ran: string[] = []
  const m: Machine = {
    exists: (path) => present.has(path),
    isRoot,
    env,
    run: (command, args) => {
      ran.push([command, ...args].join(' '))
      if (command === 'sudo' && args[0] === '-n') return sudoWorks ? 0 : 1
      if (exitCode === 0) present.add(DEFAULT_CHROMIUM)
      return exitCode
    },
  }
  return { m, ran }
}

describe('npm test finds or installs Chromium', () => {
  it('uses the Chromium that is there and runs nothing', () => {
    const { m, ran } = machine([DEFAULT_CHROMIUM])
    expect(ensureChromium(m)).toEqual({ ok: true, path: DEFAULT_CHROMIUM, installed: false })
    expect(ran).toEqual([])
  })

  it('installs it with apt-get as root', () => {
    const { m, ran } = machine(['/usr/bin/apt-get'], { isRoot: true })
    expect(ensureChromium(m)).toEqual({ ok: true, path: DEFAULT_CHROMIUM, installed: true })
    expect(ran).toHaveLength(1)
    expect(ran[0]).toMatch(/^sh -c apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium$/)
  })

  it('installs it through sudo when sudo needs no password', () => {
    const { m, ran } = machine(['/usr/bin/apt-get', '/usr/bin/sudo'], { sudoWorks: true })
    expect(ensureChromium(m)).toMatchObject({ ok: true, installed: true })
    expect(ran[0]).toBe('sudo -n true')
    expect(ran[1]).toMatch(/^sudo sh -c apt-get update/)
  })

  it('stops with one line saying what to run when this user may not install', () => {
    const { m, ran } = machine(['/usr/bin/apt-get', '/usr/bin/sudo'])
    const outcome = ensureChromium(m)
    expect(outcome.ok).toBe(false)
    if (!outcome.ok) {
      expect(outcome.message).toContain('sudo apt-get install chromium')
      expect(outcome.message.split('\n')).toHaveLength(1)
    }
    expect(ran).toEqual(['sudo -n true'])
  })

  it('stops without trying on a machine without apt-get', () => {
    const { m, ran } = machine([], { isRoot: true })
    expect(ensureChromium(m)).toMatchObject({ ok: false })
    expect(ran).toEqual([])
  })

  it('says so when apt-get fails, and does not claim success', () => {
    const { m } = machine(['/usr/bin/apt-get'], { isRoot: true, exitCode: 100 })
    const outcome = ensureChromium(m)
    expect(outcome).toMatchObject({ ok: false })
    if (!outcome.ok) expect(outcome.message).toContain('exit 100')
  })

  it('honours CHROMIUM_PATH, and refuses one that points at nothing instead of installing another', () => {
    const elsewhere = '/opt/chromium/chrome'
    expect(ensureChromium(machine([elsewhere], { env: { CHROMIUM_PATH: elsewhere } }).m)).toEqual({ ok: true, path: elsewhere, installed: false })
    const { m, ran } = machine(['/usr/bin/apt-get'], { isRoot: true, env: { CHROMIUM_PATH: '/nope' } })
    expect(ensureChromium(m)).toMatchObject({ ok: false })
    expect(ran).toEqual([])
  })
})
