import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { cartApi } from '~/contract/endpoints/cart'
import { orSignedOut } from '~/lib/api-outcome.server'
import { apiMiddleware } from '~/lib/api.middleware'

/**
 * The cart as the header's cart link reads it (every page), in a module of its own: in cart.functions.ts it brought the
 * cart pages' other sixteen server functions into every page's first load (decision 049). cart.functions.ts re-exports it.
 */

/** The shopper's open cart (it always exists), or null when signed out. */
export const getCart = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => orSignedOut(() => api.call(cartApi.getCart)))

export const cartQuery = () => queryOptions({ queryKey: ['cart'], queryFn: () => getCart() })
