import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { SupportLine } from '~/components/ui/SupportLine'
import { usePublicConfig } from '~/lib/public-config'

type Tool = { title: string; body: ReactNode; demoOnly?: boolean } & (
  | {
      to:
        | '/utils/demo-sign-in'
        | '/photo-products/cart'
        | '/photo-products/orders'
        | '/utils/session'
        | '/utils/render-check'
        | '/photo-products/tou'
        | '/utils/smokescreens'
        | '/utils/status'
        | '/utils/failed-jobs'
    }
  | { href: string }
  | { note: string }
)

const yourAccount: Tool[] = [
  { to: '/photo-products/cart', title: 'Your cart', body: 'The ornaments you’re about to order, and checkout.' },
  { to: '/photo-products/orders', title: 'Your orders', body: 'Follow each order from the printer to your door.' },
  { to: '/utils/session', title: 'Your session', body: 'The session id and campaign details support may ask for.' },
  { to: '/photo-products/tou', title: 'Terms of use', body: 'The terms for photo products.' },
]

const forTheTeam: Tool[] = [
  { to: '/utils/demo-sign-in', title: 'Demo sign-in', body: 'Shop as one of the demo families.', demoOnly: true },
  // The outbox page belongs to the e-mail work; a plain link keeps this list independent of its route.
  { href: '/utils/outbox', title: 'Outbox', body: 'Every e-mail the store has written, sent or not.', demoOnly: true },
  { to: '/utils/smokescreens', title: 'Smokescreen report', body: 'How many asked for each coming-soon product, most wanted first.', demoOnly: true },
  { to: '/utils/failed-jobs', title: 'Failed jobs', body: 'Background jobs that ran out of attempts, with their last error.', demoOnly: true },
  { to: '/utils/status', title: 'Engine status', body: 'Which database, storage, printer, payments and e-mail this server runs on.' },
  { to: '/utils/render-check', title: 'Preview render check', body: 'See the live ornament preview draw on this device.' },
  {
    note: 'Opens from the cart',
    title: 'Local checkout',
    body: 'When payments run locally, Checkout in the cart opens Keepsake’s own test-card page. Nothing to open from here.',
  },
]

const cardClass = 'block h-full rounded-card bg-cream-card p-5 shadow-card'

function ToolCard({ tool }: { tool: Tool }) {
  const inner = (
    <>
      <span className="text-lg font-semibold">{tool.title}</span>
      {tool.demoOnly ? <span className="ml-2 rounded-full bg-gold-tint px-2 py-0.5 align-middle text-xs font-semibold text-gold-dark">Demo</span> : null}
      <span className="mt-1 block text-ink-soft">{tool.body}</span>
    </>
  )
  if ('to' in tool) {
    return (
      <Link to={tool.to} className={`${cardClass} hover:shadow-lg`}>
        {inner}
      </Link>
    )
  }
  if ('href' in tool) {
    return (
      <a href={tool.href} className={`${cardClass} hover:shadow-lg`}>
        {inner}
      </a>
    )
  }
  return (
    <div className={`${cardClass} border-2 border-dashed border-ink/15 bg-cream-card/60 shadow-none`} data-testid="tool-note">
      {inner}
      <span className="mt-2 block text-sm font-semibold text-pine">{tool.note}</span>
    </div>
  )
}

function ToolList({ title, tools }: { title: string; tools: Tool[] }) {
  return (
    <section className="mt-10" aria-label={title}>
      <h2 className="text-xl font-bold tracking-tight">{title}</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2">
        {tools.map((tool) => (
          <li key={tool.title}>
            <ToolCard tool={tool} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** /utils: the store's utility pages; the demo-only tools are left out when demo mode is off. */
export function UtilsIndex() {
  const { demoMode, supportEmail } = usePublicConfig()
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">Help and tools</h1>
      <SupportLine email={supportEmail} lead="Need a person?" className="mt-3 text-lg text-ink-soft" />
      <ToolList title="Your account" tools={yourAccount} />
      <ToolList title="Tools" tools={forTheTeam.filter((tool) => demoMode || !tool.demoOnly)} />
    </main>
  )
}
