import type { DesignShareReaction } from '~/contract/design-shares'
import { LocalTime, WHEN } from '~/components/ui/LocalTime'

/** The family's answers to a shared design: who, "Love it", their note, when; newest first. */
export function ShareReactions({ reactions, empty }: { reactions: DesignShareReaction[]; empty: string }) {
  if (reactions.length === 0) return <p className="mt-2 text-sm text-ink-soft">{empty}</p>
  return (
    <ul className="mt-3 space-y-3" data-testid="share-reactions">
      {reactions.map((reaction) => (
        <li key={`${reaction.firstName}-${reaction.updatedAt}`} className="rounded-xl bg-cream-deep/70 px-4 py-3">
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-semibold">{reaction.mine ? `${reaction.firstName} (you)` : reaction.firstName}</span>
            {reaction.loved ? (
              <span className="font-semibold text-cranberry-dark">
                <span aria-hidden="true">♥ </span>Love it
              </span>
            ) : null}
            <LocalTime iso={reaction.updatedAt} format={WHEN} className="ml-auto text-sm text-ink-soft" />
          </p>
          {reaction.note ? <p className="mt-1 break-words text-ink">“{reaction.note}”</p> : null}
        </li>
      ))}
    </ul>
  )
}
