import { Link } from '@tanstack/react-router'
import { SupportLine } from '~/components/ui/SupportLine'
import { usePublicConfig } from '~/lib/public-config'

/** /utils: the store's utility pages. */
export function UtilsIndex() {
  const { demoMode, supportEmail } = usePublicConfig()
  const tools = [
    ...(demoMode ? [{ to: '/utils/demo-sign-in' as const, title: 'Demo sign-in', body: 'Shop as one of the demo families.' }] : []),
    { to: '/photo-products/cart' as const, title: 'Your cart', body: 'The ornaments you’re about to order, and checkout.' },
    { to: '/photo-products/orders' as const, title: 'Your orders', body: 'Follow each order from the printer to your door.' },
    { to: '/utils/session' as const, title: 'Your session', body: 'The session id and campaign details support may ask for.' },
    { to: '/utils/render-check' as const, title: 'Preview render check', body: 'See the live ornament preview draw on this device.' },
    { to: '/photo-products/tou' as const, title: 'Terms of use', body: 'The terms for photo products.' },
  ]
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">Help and tools</h1>
      <SupportLine email={supportEmail} lead="Need a person?" className="mt-3 text-lg text-ink-soft" />
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {tools.map((tool) => (
          <li key={tool.to}>
            <Link to={tool.to} className="block h-full rounded-card bg-cream-card p-5 shadow-card hover:shadow-lg">
              <span className="text-lg font-semibold">{tool.title}</span>
              <span className="mt-1 block text-ink-soft">{tool.body}</span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  )
}
