import { describe, expect, it } from 'vitest'
import type { ApiFailure } from '../../app/lib/api-outcome'
import { fieldErrorsOf } from '../../app/lib/field-errors'

const failure = (issues: ApiFailure['issues']): ApiFailure => ({ status: 400, code: 'validation_failed', message: 'Check the fields', issues })

describe('a refusal’s issues as a form’s fields', () => {
  it('goes by the last part of the path, keeps the first message of a field, and says the rest', () => {
    const { fields, other } = fieldErrorsOf(
      failure([
        { path: 'body.shippingAddress.postalCode', message: 'ZIP code 10001 is not in Vermont' },
        { path: 'body.postalCode', message: 'a second message for the same field' },
        { path: 'body.label', message: 'Enter a name for this address' },
        { path: 'body', message: 'Your address book is full' },
        { path: 'params.id', message: 'Address id must be a UUID' },
      ]),
      ['label', 'postalCode', 'city'] as const,
    )
    expect(fields).toEqual({ postalCode: 'ZIP code 10001 is not in Vermont', label: 'Enter a name for this address' })
    expect(other).toEqual(['a second message for the same field', 'Your address book is full', 'Address id must be a UUID'])
  })
})
