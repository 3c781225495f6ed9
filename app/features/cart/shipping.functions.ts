import { queryOptions } from '@tanstack/react-query'
import { createServerFn } from '@tanstack/react-start'
import { photoProductsApi } from '~/contract/endpoints/photo-products'
import { apiMiddleware } from '~/lib/api.middleware'

/** The shipping methods with the day an order placed now arrives, and the Christmas deadlines, for the shopper's time zone. */
export const getShippingCalendar = createServerFn({ method: 'GET' })
  .middleware([apiMiddleware])
  .handler(({ context: { api } }) => api.call(photoProductsApi.getShippingCalendar))

/**
 * A page's first render asks from the server, which does not know the shopper's time zone (UTC); once
 * hydrated the browser asks again with its own, so a shopper far from UTC late at night sees their day.
 */
export const shippingCalendarQuery = () =>
  queryOptions({
    queryKey: ['shipping-calendar'],
    queryFn: () => getShippingCalendar(),
    staleTime: 0,
    refetchOnMount: true,
  })
