import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '../support/test-api'

/**
 * /v1/openapi.json under Redocly's `recommended` ruleset (decision 041; redocly.yaml turns off one rule, with its reason): no errors. The CLI runs on this
 * machine's Node from node_modules, in a scratch directory (so no redocly.yaml is picked up), with its
 * telemetry and update check off: it needs no network.
 */
const cli = path.resolve(import.meta.dirname, '../../node_modules/@redocly/cli/bin/cli.js')

const acceptedWarnings = [
  // A private API: no licence to name.
  'info-license at #/info',
  // The server is the store's own origin, which is localhost in tests.
  'no-server-example.com at #/servers/0/url',
  // The offer click only ever redirects (302) to the offer.
  'operation-2xx-response at #/paths/~1fmn~1offers~1{id}~1click/get/responses',
]

type LintReport = {
  totals: { errors: number; warnings: number }
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[]
}

let t: TestApi
beforeAll(async () => {
  t = await createTestApi()
})
afterAll(() => t.close())

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended ruleset with no errors", { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-openapi-'))
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify((await t.request('/v1/openapi.json')).body))
      // The repository's redocly.yaml: `recommended`, with the one rule turned off that SPEC.md §7's own path breaks.
      fs.copyFileSync(path.resolve(import.meta.dirname, '../../redocly.yaml'), path.join(dir, 'redocly.yaml'))
      const { stdout } = await promisify(execFile)(process.execPath, [cli, 'lint', '--config', 'redocly.yaml', '--format', 'json', 'openapi.json'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
      const report = JSON.parse(stdout) as LintReport
      const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
      expect(problems.filter((p) => p.startsWith('error'))).toEqual([])
      expect(report.totals.errors).toBe(0)
      // Warnings too, but for three that are so by design.
      expect(problems.filter((p) => !acceptedWarnings.some((accepted) => p.startsWith(`warn ${accepted}:`)))).toEqual([])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("documents SPEC.md §7's spelling of the advocate's state (a trailing slash) beside the store's, as the same answer (issue 42, item 16)", async () => {
    const { paths } = (await t.request('/v1/openapi.json')).body as { paths: Record<string, { get?: { operationId: string; responses: unknown } }> }
    expect(paths['/growth/advocate/redemptions']?.get?.operationId).toBe('getAdvocateState')
    expect(paths['/growth/advocate/redemptions/']?.get?.operationId).toBe('getAdvocateStateAsSpecified')
    expect(paths['/growth/advocate/redemptions/']?.get?.responses).toEqual(paths['/growth/advocate/redemptions']?.get?.responses)
    // Every other path is spelled without the slash.
    expect(Object.keys(paths).filter((p) => p.endsWith('/'))).toEqual(['/growth/advocate/redemptions/'])
  })
})
