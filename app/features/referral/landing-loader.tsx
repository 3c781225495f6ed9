import type { QueryClient } from '@tanstack/react-query'
import { notFound, type NotFoundRouteProps } from '@tanstack/react-router'
import type { ReferralInvite } from '~/contract/referral'
import type { ApiOutcome } from '~/lib/api-outcome'
import { currentUserQuery } from '~/features/account/account.functions'
import { ReferralLanding, type LandingVariant } from './ReferralLanding'
import { lookupReferralInvite } from './referral.functions'

type UnknownInvite = { code: string; invite: ApiOutcome<ReferralInvite> }

/**
 * A landing's loader: the invite lookup runs here so that, on the server render, the API's
 * Set-Cookie (the remembered code) reaches the browser with the page.
 */
export async function loadLanding(queryClient: QueryClient, code: string) {
  const [invite] = await Promise.all([lookupReferralInvite({ data: { code } }), queryClient.prefetchQuery(currentUserQuery())])
  // An unknown, disabled or impossible code is the same friendly page, answered 404 (issue 15, bug 8).
  if (!invite.ok && (invite.error.status === 404 || invite.error.status === 400)) throw notFound({ data: { code, invite } satisfies UnknownInvite })
  const title = invite.ok ? `${invite.data.advocateFirstName} invited you to Keepsake` : 'You’re invited to Keepsake'
  return { invite, title }
}

/** A landing's notFoundComponent: the friendly "this invite is not working" page of its variant. */
export function unknownInvitePage(variant: LandingVariant) {
  return function UnknownInvitePage({ data }: NotFoundRouteProps) {
    const { code, invite } = data as UnknownInvite
    return <ReferralLanding variant={variant} code={code} invite={invite} />
  }
}
