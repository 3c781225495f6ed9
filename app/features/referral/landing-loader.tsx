import type { QueryClient } from '@tanstack/react-query'
import { notFound } from '@tanstack/react-router'
import type { ReferralInvite } from '~/contract/referral'
import type { ApiOutcome } from '~/lib/api-outcome'
import { currentUserQuery } from '~/features/account/account.functions'
import { lookupReferralInvite } from './referral.functions'

/** What a landing's notFound carries to its page (ReferralLanding.tsx `UnknownInvitePage`). */
export type UnknownInvite = { code: string; invite: ApiOutcome<ReferralInvite> }

/**
 * A landing's loader: the invite lookup runs here so that, on the server render, the API's
 * Set-Cookie (the remembered code) reaches the browser with the page. This module is the loader's only,
 * so every page's first load carries no landing page code: the landings draw theirs from their lazy
 * component chunks (decision 046).
 */
export async function loadLanding(queryClient: QueryClient, code: string) {
  const [invite] = await Promise.all([lookupReferralInvite({ data: { code } }), queryClient.prefetchQuery(currentUserQuery())])
  // An unknown, disabled or impossible code is the same friendly page, answered 404 (issue 15, bug 8).
  if (!invite.ok && (invite.error.status === 404 || invite.error.status === 400)) throw notFound({ data: { code, invite } satisfies UnknownInvite })
  const title = invite.ok ? `${invite.data.advocateFirstName} invited you to Keepsake` : 'You’re invited to Keepsake'
  return { invite, title }
}
