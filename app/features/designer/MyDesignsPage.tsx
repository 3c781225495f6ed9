import { useQuery, useQueryClient } from '@tanstack/react-query'
import { LocalTime } from '~/components/ui/LocalTime'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { describePersonalText } from '~/catalogue/personal-line'
import { Button, buttonClass, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import type { SavedDesign } from '~/contract/saved-designs'
import { currentUserQuery } from '~/features/account/account.functions'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { mergeDeviceDrafts } from './account-drafts'
import { DesignThumbnail } from './DesignThumbnail'
import { readDraft, removeDraft } from './draft'
import { deleteSavedDesign } from './api/delete-saved-design.functions'
import { savedDesignsQuery } from './api/saved-designs.functions'

/** /photo-products/designs: the signed-in shopper's unfinished designs, to continue on any device or delete. */
export function MyDesignsPage() {
  const designs = useQuery(savedDesignsQuery())
  const { data: user } = useQuery(currentUserQuery())
  const queryClient = useQueryClient()
  const heading = useRef<HTMLHeadingElement>(null)

  // Signing in brings this device's drafts into the account (decision 033); the list is read again if it did.
  const merged = useRef<string | null>(null)
  useEffect(() => {
    if (!user || !designs.data || merged.current === user.id) return
    merged.current = user.id
    void mergeDeviceDrafts(user.id, designs.data).then((changed) => {
      if (changed) void queryClient.invalidateQueries({ queryKey: savedDesignsQuery().queryKey })
    })
  }, [user, designs.data, queryClient])

  const onDeleted = (design: SavedDesign, left: SavedDesign[]) => {
    queryClient.setQueryData(savedDesignsQuery().queryKey, left)
    // This device's copy goes too, or it would come back at the next sign-in.
    if (readDraft(design.variantId)) removeDraft(design.variantId)
    notify.success(`Your ${design.shapeName.toLowerCase()} design was deleted`)
    heading.current?.focus()
  }

  let body: ReactNode
  if (designs.isPending) body = <DesignsSkeleton />
  else if (designs.isLoadingError) body = <LoadFailed onRetry={() => void designs.refetch()} retrying={designs.isFetching} />
  else if (designs.data === null) body = <SignedOut />
  else if (designs.data.length === 0) {
    body = (
      <StatePanel testId="designs-empty" title="No saved designs yet" action={<ButtonLink to="/photo-products">Start a design</ButtonLink>}>
        Pick photos for an ornament and we’ll keep your design here while you work on it, on this device and any other you sign in on.
      </StatePanel>
    )
  } else {
    body = (
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="My saved designs">
        {designs.data.map((design) => (
          <DesignCard key={design.id} design={design} onDeleted={onDeleted} />
        ))}
      </ul>
    )
  }
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight outline-none sm:text-4xl">
        My designs
      </h1>
      <p className="mt-2 text-ink-soft">Ornaments you started: pick up where you left off, on this device or any other.</p>
      <div className="mt-6">{body}</div>
    </main>
  )
}

function DesignCard({ design, onDeleted }: { design: SavedDesign; onDeleted: (design: SavedDesign, left: SavedDesign[]) => void }) {
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const keep = useRef<HTMLButtonElement>(null)
  const askDelete = useRef<HTMLButtonElement>(null)
  const asked = useRef(false)
  const shape = design.shapeName.toLowerCase()
  const photoCount = Object.keys(design.photos).length

  // Focus follows the question: to Keep it when asked, back to Delete when kept.
  useEffect(() => {
    if (confirming) keep.current?.focus()
    else if (asked.current) askDelete.current?.focus()
    asked.current = confirming
  }, [confirming])

  async function confirmDelete() {
    setBusy(true)
    try {
      const outcome = await deleteSavedDesign({ data: { id: design.id } })
      if (outcome.ok) return onDeleted(design, outcome.data)
      notify.error(
        outcome.error.status === 404 ? 'That design was already deleted. Reload to see your designs.' : 'We could not delete your design just now. Try again.',
      )
    } catch {
      notify.error('We could not delete your design just now. Check your connection and try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <li className="flex flex-col rounded-card bg-cream-card p-4 shadow-card" data-testid="design-card">
      <DesignThumbnail design={design} className="aspect-[16/10] w-full rounded-xl bg-cream-deep object-contain p-2" />
      <h2 className="mt-3 text-xl font-bold">{design.shapeName} ornaments</h2>
      <p className="text-sm text-ink-soft">
        {photoCount === 2 ? 'Both photos chosen' : photoCount === 1 ? '1 of 2 photos chosen' : 'No photos chosen yet'} · Last edited{' '}
        <LocalTime iso={design.updatedAt} format={{ dateStyle: 'medium', timeStyle: 'short' }} />
      </p>
      {design.text ? (
        <p className="mt-1 text-sm text-ink-soft" data-testid="design-card-text">
          Text: {describePersonalText(design.text)}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        {confirming ? (
          <div role="group" aria-label={`Delete your ${shape} design?`} className="w-full rounded-xl bg-cranberry-tint p-3">
            <p className="text-sm font-semibold text-ink">Delete your {shape} design? This can’t be undone.</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button onClick={() => void confirmDelete()} disabled={busy} className="px-4">
                {busy ? 'Deleting…' : 'Delete design'}
              </Button>
              <button ref={keep} type="button" className={buttonClass('secondary', 'px-4')} onClick={() => setConfirming(false)} disabled={busy}>
                Keep it
              </button>
            </div>
          </div>
        ) : (
          <>
            <ButtonLink to="/photo-products/ornaments/$variantId" params={{ variantId: String(design.variantId) }} className="flex-1">
              Continue<span className="sr-only"> your {shape} design</span>
            </ButtonLink>
            <button ref={askDelete} type="button" className={buttonClass('secondary')} onClick={() => setConfirming(true)}>
              Delete<span className="sr-only"> your {shape} design</span>
            </button>
          </>
        )}
      </div>
    </li>
  )
}

function SignedOut() {
  const { demoMode } = usePublicConfig()
  return (
    <StatePanel testId="designs-signed-out" title="Sign in to see your designs" action={<SignInActions redirect="/photo-products/designs" />}>
      <p>Designs you start are kept with your Keepsake account, so you can finish them on any device.</p>
      <p className="mt-2">{signInHint(demoMode)}</p>
    </StatePanel>
  )
}

function LoadFailed({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  return (
    <LoadFailedPanel
      testId="designs-error"
      title="We couldn’t load your designs"
      reassurance="Your designs are safe. Check your connection and try again."
      supportLead="Need a hand?"
      onRetry={onRetry}
      retrying={retrying}
    />
  )
}

function DesignsSkeleton() {
  return (
    <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-label="Loading your designs">
      {[0, 1].map((i) => (
        <div key={i} className="h-72 animate-pulse rounded-card bg-cream-card shadow-card" />
      ))}
    </div>
  )
}
