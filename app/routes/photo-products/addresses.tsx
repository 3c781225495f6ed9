import { createFileRoute } from '@tanstack/react-router'
import { AddressBookPage } from '~/features/account/AddressBookPage'
import { addressBookQuery } from '~/features/account/addresses.functions'

export const Route = createFileRoute('/photo-products/addresses')({
  // Prefetched, not ensured: an address book that fails to load is shown on the page with a retry.
  loader: ({ context }) => context.queryClient.prefetchQuery(addressBookQuery()),
  head: () => ({ meta: [{ title: 'Address book — Keepsake' }] }),
  component: AddressBookPage,
})
