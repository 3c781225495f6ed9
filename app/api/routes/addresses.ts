import { Hono } from 'hono'
import { addressesApi } from '../../contract/endpoints/addresses'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { createAddress, deleteAddress, listAddresses, updateAddress } from '../services/addresses'
import { closeCheckoutsOfChangedAddress } from '../services/checkout'

export const addressRoutes = new Hono<ApiEnv>()

endpoint(addressRoutes, addressesApi.listAddresses, ({ user }, c) => listAddresses(c.get('deps').db, user))

endpoint(addressRoutes, addressesApi.createAddress, ({ user, body }, c) => createAddress(c.get('deps').db, user, body, c.get('deps').now()))

// A checkout with a parcel to the entry is closed when the entry changes, as a cart change closes it (issue 42, item 4).
endpoint(addressRoutes, addressesApi.updateAddress, async ({ user, params, body }, c) => {
  const deps = c.get('deps')
  const entry = await updateAddress(deps.db, user, params.id, body, deps.now())
  await closeCheckoutsOfChangedAddress(deps, user, params.id)
  return entry
})

endpoint(addressRoutes, addressesApi.deleteAddress, async ({ user, params }, c) => {
  const deps = c.get('deps')
  const book = await deleteAddress(deps.db, user, params.id)
  await closeCheckoutsOfChangedAddress(deps, user, params.id)
  return book
})
