import { z } from 'zod'

/**
 * zod, configured once so validation messages read as SPEC.md §8 has them:
 * "Required" for a missing value and "Expected number, received string" for a wrong type.
 * Every contract module imports z from here, so the map is installed before any parse.
 */
function receivedType(input: unknown): string {
  if (input === null) return 'null'
  if (Array.isArray(input)) return 'array'
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan'
  if (input instanceof Date) return 'date'
  return typeof input
}

export const zodErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'Required'
    return `Expected ${issue.expected}, received ${receivedType(issue.input)}`
  }
  return undefined
}

z.config({ customError: zodErrorMap })

export { z }
