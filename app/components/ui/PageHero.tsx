import type { ReactNode } from 'react'

type PageHeroProps = {
  eyebrow?: string
  title: ReactNode
  lead?: ReactNode
  actions?: ReactNode
  art?: ReactNode
  tone?: 'cream' | 'pine' | 'cranberry'
}

const tones = {
  cream: 'bg-cream-deep/70 text-ink',
  pine: 'bg-pine text-cream',
  cranberry: 'bg-cranberry-dark text-cream',
}

/** The top of an area landing: words on the left, artwork on the right (stacked on phones). */
export function PageHero({ eyebrow, title, lead, actions, art, tone = 'cream' }: PageHeroProps) {
  const quiet = tone === 'cream' ? 'text-ink-soft' : 'text-cream/90'
  return (
    <section className={`${tones[tone]} overflow-hidden`}>
      <div className="mx-auto grid max-w-6xl items-center gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1.1fr_0.9fr] md:py-16">
        <div>
          {eyebrow ? (
            <p className={`text-sm font-semibold uppercase tracking-[0.16em] ${tone === 'cream' ? 'text-pine' : 'text-gold-tint'}`}>{eyebrow}</p>
          ) : null}
          <h1 className="mt-2 text-balance text-4xl font-bold leading-tight tracking-tight sm:text-5xl">{title}</h1>
          {lead ? <p className={`mt-4 max-w-xl text-pretty text-lg ${quiet}`}>{lead}</p> : null}
          {actions ? <div className="mt-7 flex flex-wrap gap-3">{actions}</div> : null}
        </div>
        {art ? <div className="flex justify-center">{art}</div> : null}
      </div>
    </section>
  )
}

export function Section({ title, intro, children, id }: { title?: string; intro?: ReactNode; children: ReactNode; id?: string }) {
  return (
    <section id={id} className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      {title ? <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h2> : null}
      {intro ? <p className="mt-2 max-w-2xl text-ink-soft">{intro}</p> : null}
      <div className={title || intro ? 'mt-6' : ''}>{children}</div>
    </section>
  )
}

export function FeatureList({ items }: { items: { title: string; body: ReactNode; icon?: ReactNode }[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {items.map((item) => (
        <li key={item.title} className="rounded-card bg-cream-card p-5 shadow-card">
          {item.icon ? <div className="mb-3 text-cranberry">{item.icon}</div> : null}
          <h3 className="text-lg font-semibold">{item.title}</h3>
          <p className="mt-1 text-ink-soft">{item.body}</p>
        </li>
      ))}
    </ul>
  )
}

/** A designed empty state: what is missing, why, and what to do next. */
/** `level`: the heading's level where the page has no section heading above it (2), else under one (3). */
export function EmptyState({ title, body, action, level = 3 }: { title: string; body: ReactNode; action?: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <div className="rounded-card border-2 border-dashed border-ink/15 bg-cream-card/60 px-6 py-10 text-center">
      <Heading className="text-lg font-semibold">{title}</Heading>
      <p className="mx-auto mt-2 max-w-md text-ink-soft">{body}</p>
      {action ? <div className="mt-5 flex justify-center">{action}</div> : null}
    </div>
  )
}
