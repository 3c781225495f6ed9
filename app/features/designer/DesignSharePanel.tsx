import { useQuery, useQueryClient } from '@tanstack/react-query'
import { LocalTime, WHEN } from '~/components/ui/LocalTime'
import { useId, useState } from 'react'
import { Button, buttonClass } from '~/components/ui/Button'
import type { OwnDesignShare, OwnDesignShares } from '~/contract/design-shares'
import { currentUserQuery } from '~/features/account/account.functions'
import { notify } from '~/lib/toast'
import { designSharesQuery } from './api/design-shares.functions'
import { revokeDesignShare } from './api/revoke-design-share.functions'
import { shareDesign } from './api/share-design.functions'
import { savedDesignsQuery } from './api/saved-designs.functions'
import { ShareReactions } from './ShareReactions'

/**
 * "Send to family" in the designer (issue 19, part 5): a signed-in shopper sends their saved design of
 * this variant to one of their album families, copies the link, sees what the family said, and stops
 * a link. Signed out, it is not shown: a share belongs to a design saved to the account.
 */
export function DesignSharePanel({ variantId, saveNow }: { variantId: number; saveNow: () => Promise<unknown> }) {
  const { data: user } = useQuery(currentUserQuery())
  const saved = useQuery({ ...savedDesignsQuery(), enabled: Boolean(user) })
  const design = saved.data?.find((d) => d.variantId === variantId) ?? null
  const shares = useQuery({ ...designSharesQuery(design?.id ?? ''), enabled: Boolean(design), refetchInterval: 60_000 })
  const queryClient = useQueryClient()
  const [familyId, setFamilyId] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  const familyField = useId()
  if (!user) return null

  const families = shares.data?.families ?? []
  const chosenFamily = families.length > 1 ? (familyId ?? families[0]!.id) : undefined

  async function send() {
    setSending(true)
    setProblem(null)
    try {
      // The link shows the design as the account holds it: the latest change is saved first.
      await saveNow()
      const designs = await queryClient.fetchQuery({ ...savedDesignsQuery(), staleTime: 0 })
      const current = designs?.find((d) => d.variantId === variantId)
      if (!current) return setProblem('Choose photos for your ornaments first; then you can send the design to your family.')
      const outcome = await shareDesign({ data: { designId: current.id, familyId: chosenFamily } })
      if (outcome.ok) {
        queryClient.setQueryData<OwnDesignShares | null>(designSharesQuery(current.id).queryKey, (before) =>
          before ? { ...before, shares: [outcome.data, ...before.shares] } : before,
        )
        void queryClient.invalidateQueries({ queryKey: designSharesQuery(current.id).queryKey })
        notify.success(`Link ready for ${outcome.data.family.name}: copy it and send it to them`)
      } else if (outcome.error.status === 422 || outcome.error.status === 400) setProblem(outcome.error.message)
      else notify.error('We could not make a link just now. Try again.')
    } catch {
      notify.error('We could not make a link just now. Check your connection and try again.')
    } finally {
      setSending(false)
    }
  }

  return (
    <section aria-labelledby="share-heading" data-testid="design-share-panel">
      <h2 id="share-heading" className="text-lg font-semibold">
        Send to family
      </h2>
      <p className="text-sm text-ink-soft">
        Ask your album family what they think. They see the pair as it is now, without prices, and can answer “Love it” or leave a note.
      </p>
      {families.length > 1 ? (
        <div className="mt-3">
          <label htmlFor={familyField} className="block text-sm font-semibold">
            Family
          </label>
          <select
            id={familyField}
            value={chosenFamily}
            onChange={(e) => setFamilyId(e.target.value)}
            className="mt-1 min-h-11 w-full rounded-xl border-2 border-ink/15 bg-white px-3 text-base"
          >
            {families.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <Button variant="secondary" onClick={() => void send()} disabled={sending} className="mt-3 w-full sm:w-auto">
        {sending ? 'Making a link…' : 'Send to family'}
      </Button>
      {problem ? (
        <p className="mt-2 text-sm font-semibold text-cranberry-dark" role="alert">
          {problem}
        </p>
      ) : null}
      {shares.data?.shares.length ? (
        <ul className="mt-4 space-y-4" aria-label="Your family links">
          {shares.data.shares.map((share) => (
            <ShareCard key={share.token} share={share} designId={design!.id} />
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function ShareCard({ share, designId }: { share: OwnDesignShare; designId: string }) {
  const queryClient = useQueryClient()
  const [stopping, setStopping] = useState(false)
  const link = share.url
  const linkField = useId()

  async function copy() {
    try {
      await navigator.clipboard.writeText(link)
      notify.success('Link copied')
    } catch {
      notify.error('Your browser would not copy it: select the link and copy it yourself.')
    }
  }

  async function stop() {
    setStopping(true)
    try {
      const outcome = await revokeDesignShare({ data: { token: share.token } })
      if (outcome.ok || outcome.error.status === 404) {
        if (outcome.ok) queryClient.setQueryData(designSharesQuery(designId).queryKey, outcome.data)
        else void queryClient.invalidateQueries({ queryKey: designSharesQuery(designId).queryKey })
        notify.success(`The link for ${share.family.name} no longer works`)
      } else notify.error('We could not stop the link just now. Try again.')
    } catch {
      notify.error('We could not stop the link just now. Check your connection and try again.')
    } finally {
      setStopping(false)
    }
  }

  return (
    <li className="rounded-card bg-cream-card p-4 shadow-card" data-testid="design-share">
      <p className="text-sm text-ink-soft">
        Sent to <span className="font-semibold text-ink">{share.family.name}</span> · <LocalTime iso={share.createdAt} format={WHEN} />
      </p>
      <label htmlFor={linkField} className="sr-only">
        Link for {share.family.name}
      </label>
      <input
        id={linkField}
        readOnly
        value={link}
        onFocus={(e) => e.target.select()}
        className="mt-2 min-h-11 w-full rounded-xl border-2 border-ink/15 bg-white px-3 text-sm text-ink"
      />
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()} className="px-4">
          Copy link
        </Button>
        <button type="button" className={buttonClass('quiet', 'px-3')} onClick={() => void stop()} disabled={stopping}>
          {stopping ? 'Stopping…' : 'Stop sharing'}
        </button>
      </div>
      <h3 className="mt-4 font-semibold">What family said</h3>
      <ShareReactions reactions={share.reactions} empty="No answers yet. Family members who open the link can say “Love it” or leave a note." />
    </li>
  )
}
