import { describe, expect, it } from 'vitest'
import { ApiClientError } from '../../app/lib/api-client'
import { orAbsent, orSignedOut, outcomeOf } from '../../app/lib/api-outcome.server'

const refusal = (status: number) => new ApiClientError(status, status === 401 ? 'unauthenticated' : 'not_found', `refused with ${status}`)
const failing = (error: unknown) => () => Promise.reject(error)

describe('outcomes of an API call in a server function', () => {
  it('orSignedOut answers null for a 401 only', async () => {
    await expect(orSignedOut(async () => 'cart')).resolves.toBe('cart')
    await expect(orSignedOut(failing(refusal(401)))).resolves.toBeNull()
    await expect(orSignedOut(failing(refusal(404)))).rejects.toThrow('refused with 404')
  })

  it('orAbsent answers null for a 404 only', async () => {
    await expect(orAbsent(failing(refusal(404)))).resolves.toBeNull()
    await expect(orAbsent(failing(refusal(401)))).rejects.toThrow('refused with 401')
    await expect(orAbsent(failing(new TypeError('boom')))).rejects.toThrow('boom')
  })

  it('outcomeOf turns a refusal into a failed outcome with its status, code and issues, and rethrows anything else', async () => {
    await expect(outcomeOf(async () => 1)).resolves.toEqual({ ok: true, data: 1 })
    await expect(outcomeOf(failing(refusal(404)))).resolves.toEqual({
      ok: false,
      error: { status: 404, code: 'not_found', message: 'refused with 404', issues: [] },
    })
    await expect(outcomeOf(failing(new Error('bug')))).rejects.toThrow('bug')
  })
})
