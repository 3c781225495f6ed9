import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { addressesApi } from '~/contract/endpoints/addresses'
import { z } from '~/contract/zod'
import { orSignedOut, outcomeOf } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/** The shopper's address book, or null when signed out. */
export const getAddressBook = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(() => api.call(addressesApi.listAddresses)))

/**
 * Saves an address: a new one, or the one named by `id`. The fields go to the API as the shopper typed them
 * (bounded here only in size), so its refusals come back per field, in the form's words.
 */
export const saveAddress = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(z.object({ id: z.uuid().optional(), address: z.record(z.string().max(32), z.string().max(500)) }))
  .handler(({ data, context: { api } }) =>
    outcomeOf(() =>
      data.id
        ? api.call(addressesApi.updateAddress, { params: { id: data.id }, body: data.address as never })
        : api.call(addressesApi.createAddress, { body: data.address as never }),
    ),
  )

export const removeAddress = createServerFn({ method: 'POST' })
  .middleware([apiMiddleware])
  .validator(z.object({ id: z.uuid() }))
  .handler(({ data, context: { api } }) => outcomeOf(() => api.call(addressesApi.deleteAddress, { params: data })))

export const addressBookQuery = () => queryOptions({ queryKey: ['address-book'], queryFn: () => getAddressBook() })
