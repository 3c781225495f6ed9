import './lib/zod-jitless'
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { createRouter, useRouter, type ErrorComponentProps } from '@tanstack/react-router'
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query'
import { createIsomorphicFn } from '@tanstack/react-start'
import { LazyErrorPage as ErrorPage, LazyMaintenanceScreen as MaintenanceScreen, LazyNotFoundPage as NotFoundPage } from './components/ui/lazy-screens'
import { PageSpinner } from './components/ui/Spinner'
import { SOMETHING_WENT_WRONG, isOutage, shopperErrorText } from './lib/error-text'
import { notify } from './lib/toast'
import { toastMutationError, toastQueryError } from './lib/query-errors'
import { retryUnreachableOnce } from './lib/retry'
import { routeTree } from './routeTree.gen'
import { currentCspNonce } from './csp.server'

/** This page's CSP nonce (app/csp.server.ts), for the router to stamp on the scripts it renders; none in the browser. */
const cspNonce = createIsomorphicFn()
  .server(() => currentCspNonce())
  .client(() => undefined)

function toastError(error: unknown) {
  if (typeof window === 'undefined') return
  notify.error(shopperErrorText(error) ?? SOMETHING_WENT_WRONG)
}

/** A route that failed to load: its error (or, for an outage, the right-back screen), and a Retry that loads it again. */
function RouteErrorPage({ error, reset }: ErrorComponentProps) {
  const router = useRouter()
  const retry = () => {
    reset()
    void router.invalidate()
  }
  // The database (or another dependency) is gone for a moment: "we'll be right back", not the crash screen (decision 073).
  if (isOutage(error)) return <MaintenanceScreen outage={{ onRetry: retry }} />
  return (
    <ErrorPage title={shopperErrorText(error)} message="Something went wrong while loading this page. Check your connection and try again." onRetry={retry} />
  )
}

export function getRouter() {
  const queryClient = new QueryClient({
    // A query that failed on the server render arrives failed, its server function having made SPEC.md §8's
    // 3 attempts: the page shows the failure with its Try again instead of asking 3 times more (issue 29).
    defaultOptions: { queries: { staleTime: 60_000, retry: retryUnreachableOnce, retryOnMount: false } },
    queryCache: new QueryCache({ onError: (error, query) => toastQueryError(error, query, toastError) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => toastMutationError(error, mutation, toastError) }),
  })
  const router = createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
    // SPEC.md §2 sends /loop-store/* to /loop/store/ with its slash; both spellings are the same page.
    trailingSlash: 'preserve',
    defaultPendingComponent: PageSpinner,
    defaultPendingMs: 150,
    defaultErrorComponent: RouteErrorPage,
    defaultNotFoundComponent: () => <NotFoundPage onRetry={() => window.location.reload()} />,
    ssr: { nonce: cspNonce() },
  })
  setupRouterSsrQueryIntegration({ router, queryClient })
  return router
}
