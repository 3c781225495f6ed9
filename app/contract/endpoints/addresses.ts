import type { Endpoint } from '../endpoint'
import { addressBookEntryRequestSchema, addressBookEntrySchema, addressBookSchema, addressParamsSchema } from '../addresses'

const tag = 'photo-products-addresses'

/** The address book (issue 33): the shopper's own saved shipping addresses. */
export const addressesApi = {
  listAddresses: {
    method: 'get',
    path: '/photo-products-addresses',
    tag,
    summary: 'The shopper’s saved addresses, by name',
    auth: 'user',
    response: addressBookSchema,
  },
  createAddress: {
    method: 'post',
    path: '/photo-products-addresses',
    tag,
    summary: 'Save an address (422 when the shopper already keeps the most they may)',
    auth: 'user',
    body: addressBookEntryRequestSchema,
    response: addressBookEntrySchema,
    status: 201,
  },
  updateAddress: {
    method: 'put',
    path: '/photo-products-addresses/:id',
    tag,
    summary: 'Change a saved address (404 when unknown or another shopper’s)',
    auth: 'user',
    params: addressParamsSchema,
    body: addressBookEntryRequestSchema,
    response: addressBookEntrySchema,
  },
  deleteAddress: {
    method: 'delete',
    path: '/photo-products-addresses/:id',
    tag,
    summary: 'Remove a saved address (404 when unknown or another shopper’s); answers the addresses left',
    auth: 'user',
    params: addressParamsSchema,
    response: addressBookSchema,
  },
} as const satisfies Record<string, Endpoint>
