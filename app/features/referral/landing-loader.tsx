import type { QueryClient } from '@tanstack/react-query'
import { notFound } from '@tanstack/react-router'
import type { ReferralInvite } from '~/contract/referral'
import type { ApiOutcome } from '~/lib/api-outcome'
import { currentUserQuery } from '~/features/account/account.functions'
import { lazyPart } from '~/lib/lazy-part'
import { lookupReferralInvite } from './referral.functions'

/**
 * A landing whose invite could not be looked up (InviteStates.tsx), a rare state: fetched only when it is shown, by the
 * loader that failed to look the invite up, or before the page hydrates when the server painted it
 * (app/lib/lazy-part.tsx). Here, beside that loader, so that no chunk of its own joins a landing's first load.
 */
export const InviteLoadFailed = lazyPart('invite-load-failed', () => import('./InviteStates').then((m) => m.InviteLoadFailed))
await InviteLoadFailed.ready

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
  // The failure the page will show comes with it; should its code fail to load, it is fetched again as it renders.
  if (!invite.ok) await InviteLoadFailed.preload().catch(() => undefined)
  const title = invite.ok ? `${invite.data.advocateFirstName} invited you to Keepsake` : 'You’re invited to Keepsake'
  return { invite, title }
}
