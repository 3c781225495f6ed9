import { ApiClientError } from '~/lib/api-client'
import type { ApiOutcome } from './api-outcome'

/** Runs an API call inside a server function, turning the API's refusal into a failed outcome. */
export async function outcomeOf<T>(call: () => Promise<T>): Promise<ApiOutcome<T>> {
  try {
    return { ok: true, data: await call() }
  } catch (error) {
    if (!(error instanceof ApiClientError)) throw error
    return { ok: false, error: { status: error.status, code: error.code, message: error.message, issues: error.issues } }
  }
}

/** The call's answer, or null when the API answers `status`; any other failure is thrown. */
const orNullOn =
  (status: number) =>
  async <T>(call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call()
    } catch (error) {
      if (error instanceof ApiClientError && error.status === status) return null
      throw error
    }
  }

/** null when the API answers 401: the page then asks the shopper to sign in. */
export const orSignedOut = orNullOn(401)

/** null when the API answers 404: the thing is not there (or not this shopper's), or the endpoint is off (demo mode). */
export const orAbsent = orNullOn(404)
