import { useQuery, useQueryClient } from '@tanstack/react-query'
import { LocalTime } from '~/components/ui/LocalTime'
import { useRouter } from '@tanstack/react-router'
import { useId, useState, type FormEvent } from 'react'
import { noteLength, noteProblem, SHARE_NOTE_MAX } from '~/catalogue/design-share-terms'
import { describePersonalText } from '~/catalogue/personal-line'
import { Button, ButtonLink } from '~/components/ui/Button'
import { LoadFailedPanel, StatePanel } from '~/components/ui/StatePanel'
import { SignInActions, signInHint } from '~/components/ui/SignInActions'
import type { SharedDesign } from '~/contract/design-shares'
import type { ApiOutcome } from '~/lib/api-outcome'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { DesignThumbnail } from './DesignThumbnail'
import { setShareLove } from './api/share-love.functions'
import { setShareNote } from './api/share-note.functions'
import { sharedDesignQuery } from './api/shared-design.functions'
import { ShareReactions } from './ShareReactions'

/**
 * /photo-products/shared/$token: a saved design a family member sent for a look (issue 19, part 5).
 * The pair as it was when sent, who sent it, and the family's answers; no prices. The route answers
 * 404 before this renders when the shopper is not in the family (or the link was stopped).
 */
export function SharedDesignPage({ token }: { token: string }) {
  const shared = useQuery(sharedDesignQuery(token))
  const outcome = shared.data
  let body
  if (shared.isPending) body = <ShareSkeleton />
  else if (outcome && !outcome.ok && outcome.error.status === 404) {
    // Stopped (or the shopper left the family) while the page was open.
    body = (
      <StatePanel testId="shared-design-gone" title="This design is no longer shared" action={<ButtonLink to="/photo-products">Go to the store</ButtonLink>}>
        The family member who sent it stopped sharing it.
      </StatePanel>
    )
  } else if (shared.isLoadingError || !outcome || (!outcome.ok && outcome.error.status !== 401)) {
    body = (
      <LoadFailedPanel
        testId="shared-design-error"
        title="We couldn’t load this design"
        reassurance="Check your connection and try again."
        supportLead="Need a hand?"
        onRetry={() => void shared.refetch()}
        retrying={shared.isFetching}
      />
    )
  } else if (!outcome.ok) body = <SignedOut token={token} />
  else body = <SharedDesignView design={outcome.data} />
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 pb-16 pt-8 sm:px-6 sm:pt-12">
      {body}
    </main>
  )
}

function SharedDesignView({ design }: { design: SharedDesign }) {
  const shape = design.shapeName.toLowerCase()
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
      <div>
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">For {design.familyName}</p>
        <h1 className="mt-1 text-balance text-3xl font-bold tracking-tight sm:text-4xl">
          {design.isSharer ? `Your ${shape} ornaments, as your family sees them` : `${design.sharerFirstName} would love your opinion`}
        </h1>
        <p className="mt-2 text-ink-soft">
          {design.isSharer ? 'You sent' : `${design.sharerFirstName} sent`} this {shape} ornament pair on{' '}
          <LocalTime iso={design.sharedAt} format={{ dateStyle: 'medium' }} />. It’s shown as it was then, with the two photos chosen for it.
        </p>
        <figure className="mt-6 rounded-card bg-cream-card p-4 shadow-card sm:p-6">
          <DesignThumbnail design={design} className="aspect-[16/10] w-full rounded-xl bg-cream-deep object-contain p-2" />
          <figcaption className="sr-only">
            {design.shapeName} ornament pair with {Object.keys(design.photos).length === 1 ? 'one family photo' : 'two family photos'}
          </figcaption>
          {design.text ? (
            <p className="mt-3 text-sm text-ink-soft" data-testid="shared-design-text">
              Text: {describePersonalText(design.text)}
            </p>
          ) : null}
        </figure>
      </div>
      <div className="space-y-8">
        {design.isSharer ? (
          <p className="rounded-card bg-pine-tint p-4 text-pine-dark">This is the page your family sees. Their answers show here and in the designer.</p>
        ) : (
          <Answer design={design} />
        )}
        <section aria-labelledby="family-said-heading">
          <h2 id="family-said-heading" className="text-lg font-semibold">
            What family said
          </h2>
          <ShareReactions reactions={design.reactions} empty="No answers yet. Be the first to say what you think." />
        </section>
      </div>
    </div>
  )
}

/** "Love it" and the note: each answer replaces the page's copy of the share with the API's. */
function Answer({ design }: { design: SharedDesign }) {
  const queryClient = useQueryClient()
  const router = useRouter()
  const mine = design.reactions.find((r) => r.mine)
  const [draft, setDraft] = useState(mine?.note ?? '')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'love' | 'note' | 'delete' | null>(null)
  const noteId = useId()
  const loved = mine?.loved ?? false
  const length = noteLength(draft)

  async function answer(kind: 'love' | 'note' | 'delete', call: () => Promise<ApiOutcome<SharedDesign>>) {
    setBusy(kind)
    try {
      const outcome = await call()
      if (outcome.ok) {
        queryClient.setQueryData(sharedDesignQuery(design.token).queryKey, outcome)
        return outcome.data
      }
      if (outcome.error.status === 404) {
        notify.error(`${design.sharerFirstName} stopped sharing this design.`)
        queryClient.removeQueries({ queryKey: sharedDesignQuery(design.token).queryKey })
        void router.invalidate()
      } else if (outcome.error.status === 400) setError(outcome.error.issues[0]?.message ?? outcome.error.message)
      else notify.error('We could not send your answer just now. Try again.')
    } catch {
      notify.error('We could not send your answer just now. Check your connection and try again.')
    } finally {
      setBusy(null)
    }
    return null
  }

  async function submitNote(event: FormEvent) {
    event.preventDefault()
    const problem = noteProblem(draft)
    setError(problem)
    if (problem) return
    const saved = await answer('note', () => setShareNote({ data: { token: design.token, note: draft } }))
    if (saved) {
      setDraft(saved.reactions.find((r) => r.mine)?.note ?? '')
      notify.success(`Your note is on its way to ${design.sharerFirstName}`)
    }
  }

  async function deleteNote() {
    const saved = await answer('delete', () => setShareNote({ data: { token: design.token, note: null } }))
    if (saved) {
      setDraft('')
      setError(null)
    }
  }

  return (
    <section aria-labelledby="answer-heading" className="rounded-card bg-cream-card p-4 shadow-card sm:p-6">
      <h2 id="answer-heading" className="text-lg font-semibold">
        Tell {design.sharerFirstName} what you think
      </h2>
      <Button
        variant={loved ? 'primary' : 'secondary'}
        aria-pressed={loved}
        disabled={busy !== null}
        onClick={() => void answer('love', () => setShareLove({ data: { token: design.token, loved: !loved } }))}
        className="mt-3 w-full sm:w-auto"
      >
        <span aria-hidden="true">{loved ? '♥' : '♡'}</span> Love it
      </Button>
      <form onSubmit={(e) => void submitNote(e)} noValidate className="mt-6">
        <label htmlFor={noteId} className="block font-semibold">
          {mine?.note ? 'Your note' : 'Leave a note'} <span className="font-normal text-ink-soft">(one line)</span>
        </label>
        <input
          id={noteId}
          type="text"
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value)
            if (error) setError(null)
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${noteId}-count${error ? ` ${noteId}-error` : ''}`}
          autoComplete="off"
          enterKeyHint="send"
          placeholder={`e.g. Grandma will love it!`}
          className="mt-2 min-h-11 w-full rounded-xl border-2 border-ink/15 bg-white px-3 py-2 text-base text-ink placeholder:text-ink-faint focus:border-pine focus:outline-none aria-[invalid]:border-cranberry"
        />
        <div className="mt-1 flex items-start justify-between gap-3 text-sm">
          <p id={`${noteId}-error`} className="font-semibold text-cranberry-dark" role="alert">
            {error}
          </p>
          <p id={`${noteId}-count`} className={`shrink-0 tabular-nums ${length > SHARE_NOTE_MAX ? 'font-semibold text-cranberry-dark' : 'text-ink-soft'}`}>
            {length}/{SHARE_NOTE_MAX}
            <span className="sr-only"> characters</span>
          </p>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          <Button type="submit" disabled={busy !== null}>
            {busy === 'note' ? 'Sending…' : mine?.note ? 'Update note' : 'Send note'}
          </Button>
          {mine?.note ? (
            <Button variant="secondary" disabled={busy !== null} onClick={() => void deleteNote()}>
              {busy === 'delete' ? 'Deleting…' : 'Delete note'}
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  )
}

function SignedOut({ token }: { token: string }) {
  const { demoMode } = usePublicConfig()
  return (
    <>
      <h1 className="mb-6 text-3xl font-bold tracking-tight sm:text-4xl">A design from your family</h1>
      <StatePanel testId="shared-design-signed-out" title="Sign in to see this design" action={<SignInActions redirect={`/photo-products/shared/${token}`} />}>
        <p>A family member shared an ornament design with your album family. Sign in with your Keepsake account to see it and tell them what you think.</p>
        <p className="mt-2">{signInHint(demoMode)}</p>
      </StatePanel>
    </>
  )
}

function ShareSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]" role="status" aria-label="Loading the design">
      <div className="aspect-[16/10] animate-pulse rounded-card bg-cream-card shadow-card" />
      <div className="h-64 animate-pulse rounded-card bg-cream-card shadow-card" />
    </div>
  )
}
