import { createFileRoute, redirect } from '@tanstack/react-router'

export const Route = createFileRoute('/')({
  beforeLoad: ({ location }) => {
    throw redirect({ to: '/photo-products', search: location.search, replace: true, statusCode: 302 })
  },
})
