import type { ApiFailure } from './api-outcome'

/**
 * A refusal's issues as a form's fields: each issue goes to the field its path ends in (`body.postalCode`,
 * `body.shippingAddress.postalCode` → `postalCode`), the first message per field; the other issues are said above
 * the form's button.
 */
export function fieldErrorsOf<F extends string>(failure: ApiFailure, fields: readonly F[]): { fields: Partial<Record<F, string>>; other: string[] } {
  const byField: Partial<Record<F, string>> = {}
  const other: string[] = []
  for (const issue of failure.issues) {
    const name = issue.path.split('.').at(-1) as F
    if (fields.includes(name) && byField[name] === undefined) byField[name] = issue.message
    else other.push(issue.message)
  }
  return { fields: byField, other }
}
