import { Hono } from 'hono'
import { addressesApi } from '../../contract/endpoints/addresses'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { createAddress, deleteAddress, listAddresses, updateAddress } from '../services/addresses'

export const addressRoutes = new Hono<ApiEnv>()

endpoint(addressRoutes, addressesApi.listAddresses, ({ user }, c) => listAddresses(c.get('deps').db, user))

endpoint(addressRoutes, addressesApi.createAddress, ({ user, body }, c) => createAddress(c.get('deps').db, user, body, c.get('deps').now()))

endpoint(addressRoutes, addressesApi.updateAddress, ({ user, params, body }, c) => updateAddress(c.get('deps').db, user, params.id, body, c.get('deps').now()))

endpoint(addressRoutes, addressesApi.deleteAddress, ({ user, params }, c) => deleteAddress(c.get('deps').db, user, params.id))
