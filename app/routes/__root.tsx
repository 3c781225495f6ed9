import type { QueryClient } from '@tanstack/react-query'
import {
  HeadContent,
  Outlet,
  Scripts,
  createRootRouteWithContext,
  notFound,
  rootRouteId,
  useMatches,
  useRouter,
  type NotFoundRouteProps,
} from '@tanstack/react-router'
import { lazy, useEffect, type ReactNode } from 'react'
import { SiteFooter } from '~/components/layout/SiteFooter'
import { SiteHeader } from '~/components/layout/SiteHeader'
import { LazyToaster } from '~/components/ui/LazyToaster'
import { LazyBadLinkPage as BadLinkPage, LazyNotFoundPage as NotFoundPage } from '~/components/ui/lazy-screens'
import { MALFORMED_LINK } from '~/contract/malformed-path'
import { AccountMenu } from '~/features/account/AccountMenu'
import { CartNavLinks } from '~/features/cart/CartNavLinks'
import { AnalyticsConsentBar } from '~/features/privacy/AnalyticsConsentBar'
import { posthogTransport, startAnalytics, track, type AnalyticsTransport } from '~/lib/analytics'
import { recordAnalytics } from '~/lib/analytics.functions'
import { SessionProvider } from '~/lib/session'
import { getShellState } from '~/lib/shell.functions'
import interLatin from '~/styles/fonts/inter-latin-wght-400-700.woff2?url'
import appCss from '~/styles/app.css?url'
// Inlined: a page asks for no favicon before its first paint (decision 024); /favicon.svg stays for other clients.
import favicon from '../../public/favicon.svg?inline'

// Painted only in maintenance or inside a root-override window (the not-found page: lazy-screens.ts): each loads when it is shown,
// not with every page's first load (decision 049). The server renders them in full; the browser hydrates them
// once their chunk has arrived.
const MaintenanceScreen = lazy(() => import('~/components/ui/MaintenanceScreen').then((m) => ({ default: m.MaintenanceScreen })))
const HolidayRoot = lazy(() => import('~/features/holiday/HolidayRoot').then((m) => ({ default: m.HolidayRoot })))

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The page sits inside the album app's web view as a sheet (the /loop/modal campaigns): no site header or footer. */
    sheet?: boolean
  }
}

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  head: () => ({
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1, viewport-fit=cover' },
      { title: 'Keepsake — photo ornaments from your family album' },
      { name: 'description', content: 'Turn your family photos into ornaments you can hold: tree, star and stocking, in matching pairs with a festive back.' },
      { name: 'theme-color', content: '#fbf6ee' },
    ],
    links: [
      { rel: 'stylesheet', href: appCss },
      // Inter's Latin face (the one every page paints with) downloads beside the stylesheet, not after it (decision 024).
      { rel: 'preload', href: interLatin, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
      { rel: 'icon', href: favicon, type: 'image/svg+xml' },
    ],
  }),
  /**
   * In maintenance no page's loader may run: each would meet the API's 503 and surface it as an error
   * (issue 15, bug 3). Stopping here, before any child's beforeLoad or loader, shows the maintenance screen.
   */
  beforeLoad: async ({ location }) => {
    // `/` only redirects (routes/index.tsx): a redirect keeps its status in maintenance too (bug 2).
    if (location.pathname === '/') return
    if ((await maintenanceState()).maintenance) throw notFound({ routeId: rootRouteId, data: MAINTENANCE })
  },
  loader: () => getShellState(),
  staleTime: Infinity,
  notFoundComponent: RootNotFound,
  shellComponent: RootDocument,
  component: RootComponent,
})

const MAINTENANCE = 'maintenance'
let shellOnce: ReturnType<typeof getShellState> | undefined
/** The server answers afresh on every render; a tab asks once (maintenance is set when the server starts). */
function maintenanceState() {
  if (typeof window === 'undefined') return getShellState()
  shellOnce ??= getShellState().catch((error: unknown) => {
    shellOnce = undefined
    throw error
  })
  return shellOnce
}

function RootNotFound({ data }: NotFoundRouteProps) {
  if (data === MAINTENANCE) return <MaintenanceScreen />
  if (data === MALFORMED_LINK) return <BadLinkPage />
  return <NotFoundPage onRetry={() => window.location.reload()} />
}

function RootDocument({ children }: { children: ReactNode }) {
  // Marks the page once React has hydrated it (the scripts load after the first paint, decision 024): browser
  // tests wait for this before they type, and a form filled before it would lose what was typed.
  useEffect(() => {
    document.documentElement.setAttribute('data-hydrated', '')
  }, [])
  return (
    <html lang="en">
      <head>
        <HeadContent />
      </head>
      <body>
        {children}
        <LazyToaster />
        <Scripts />
      </body>
    </html>
  )
}

/** The longest a timer waits at once; a later edge is reached by waiting again (setTimeout overflows past ~24 days). */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000

/**
 * Reloads the shell state at the next root-override edge, so an open tab switches to (or back from)
 * the holiday root app when its window starts or ends (issue 15, bug 8). A phone that slept through
 * the edge checks again when the tab is shown.
 */
let hydrated = false

function useShellReloadAt(msUntil: number | null) {
  const router = useRouter()
  useEffect(() => {
    if (msUntil === null) return
    // The first value was measured on the server as the page was made; the page has aged since
    // (download, hydration: seconds on a slow phone), about as long as it has been alive.
    const aged = hydrated ? 0 : performance.now()
    hydrated = true
    const wait = Math.max(0, msUntil - aged)
    const due = Date.now() + wait
    const reload = () => void router.invalidate()
    const timer = window.setTimeout(reload, Math.min(wait + 250, LONGEST_WAIT_MS))
    const onShown = () => {
      if (document.visibilityState === 'visible' && Date.now() >= due) reload()
    }
    document.addEventListener('visibilitychange', onShown)
    return () => {
      window.clearTimeout(timer)
      document.removeEventListener('visibilitychange', onShown)
    }
  }, [msUntil, router])
}

function RootComponent() {
  const shell = Route.useLoaderData() as ReturnType<typeof Route.useLoaderData> | undefined
  const router = useRouter()
  useShellReloadAt(shell?.msUntilRootSwitch ?? null)
  const sheet = useMatches({ select: (matches) => matches.some((m) => m.staticData.sheet === true) })
  // No shell state: beforeLoad stopped the load for maintenance before the loader ran.
  if (!shell || shell.maintenance) return <MaintenanceScreen />
  const { rootOverride, publicConfig, analyticsConsent } = shell
  if (rootOverride) return <HolidayRoot />
  return (
    <SessionProvider
      onStart={(session) => {
        const transports: AnalyticsTransport[] = [{ send: (events) => recordAnalytics({ data: { events } }).then(() => undefined) }]
        if (publicConfig.sessionReplayProjectId) transports.push(posthogTransport(publicConfig.sessionReplayProjectId, publicConfig.posthogHost))
        // Nothing is sent, and PostHog is not fetched, until the shopper allows it (the bar, or /privacy).
        startAnalytics(session, transports, { consent: analyticsConsent })
        track('DidViewPage')
        router.subscribe('onResolved', (event) => {
          if (event.pathChanged) track('DidViewPage')
        })
      }}
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-full focus:bg-ink focus:px-4 focus:py-2 focus:text-cream"
      >
        Skip to content
      </a>
      <div className="flex min-h-dvh flex-col">
        {sheet ? null : (
          <SiteHeader
            account={
              <>
                <CartNavLinks />
                <AccountMenu />
              </>
            }
          />
        )}
        {/* Sheets live inside the album app's web view: no bar there, so nothing is recorded unasked. */}
        {sheet ? null : <AnalyticsConsentBar />}
        <div className="flex-1">
          <Outlet />
        </div>
        {sheet ? null : <SiteFooter supportEmail={publicConfig.supportEmail} />}
      </div>
    </SessionProvider>
  )
}
