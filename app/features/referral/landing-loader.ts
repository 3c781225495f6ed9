import type { QueryClient } from '@tanstack/react-query'
import { currentUserQuery } from '~/features/utils/account.functions'
import { lookupReferralInvite } from './referral.functions'

/**
 * A landing's loader: the invite lookup runs here so that, on the server render, the API's
 * Set-Cookie (the remembered code) reaches the browser with the page.
 */
export async function loadLanding(queryClient: QueryClient, code: string) {
  const [invite] = await Promise.all([lookupReferralInvite({ data: { code } }), queryClient.prefetchQuery(currentUserQuery())])
  const title = invite.ok ? `${invite.data.advocateFirstName} invited you to Keepsake` : 'You’re invited to Keepsake'
  return { invite, title }
}
