import { queryOptions, useQuery } from '@tanstack/react-query'
import * as z from 'zod/mini'
import { int } from '~/lib/lean-zod'
import type { Bundle, BundlesResponse } from '~/contract/bundles'
import { ornamentShapes, type OrnamentShape } from '~/catalogue/ornaments'
import { usePublicConfig } from '~/lib/public-config'
import { withRetryOrFallback, type Sleep } from '~/lib/retry'

export const BUNDLES_PATH = '/v1/loop/bundles'

/**
 * The contract's bundlesResponseSchema, in zod/mini: the browser checks the answer itself, and the
 * cart and store pages should not load classic zod for it (decision 004). Typed against the
 * contract's type, so the two cannot drift apart unnoticed.
 */
const shape = z.enum(ornamentShapes as readonly [OrnamentShape, ...OrnamentShape[]])
const wholeCents = int()
const bundlesAnswer: z.ZodMiniType<BundlesResponse> = z.object({
  bundles: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      items: z.array(z.object({ variantId: int(), quantity: int().check(z.positive()), title: z.string(), shape })),
      currency: z.literal('usd'),
      bundlePriceCents: wholeCents,
      regularPriceCents: wholeCents,
      savingsCents: wholeCents,
      shapes: z.array(shape),
    }),
  ),
})

type FetchBundles = (input: string, init: RequestInit) => Promise<Response>

/** One GET of the bundles, made by the browser itself; a network failure, a non-2xx or a wrong shape throws. */
export async function fetchBundlesOnce(apiBaseUrl: string, fetchBundles: FetchBundles = (input, init) => fetch(input, init)): Promise<Bundle[]> {
  const response = await fetchBundles(`${apiBaseUrl}${BUNDLES_PATH}`, { credentials: 'include', headers: { accept: 'application/json' } })
  if (!response.ok) throw Object.assign(new Error(`Bundles answered ${response.status}`), { status: response.status })
  return bundlesAnswer.parse(await response.json()).bundles
}

/** SPEC.md §8: three tries, 2 s then 4 s apart; after the third failure null, so the shelf can rest quietly. */
export function loadBundles(apiBaseUrl: string, options: { fetch?: FetchBundles; sleep?: Sleep } = {}): Promise<Bundle[] | null> {
  return withRetryOrFallback(() => fetchBundlesOnce(apiBaseUrl, options.fetch), null, options.sleep)
}

/**
 * Fetched in the browser only (never during server rendering), with the retries above instead of the
 * query client's; a failed load is stale at once, so the next visit tries again.
 */
export const bundlesQuery = (apiBaseUrl: string) =>
  queryOptions({
    queryKey: ['loop-bundles'],
    queryFn: () => loadBundles(apiBaseUrl),
    staleTime: (query) => (query.state.data === null ? 0 : 5 * 60_000),
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  })

export type BundlesState =
  | { status: 'loading'; bundles: [] }
  | { status: 'ready'; bundles: Bundle[] }
  /** Three tries failed: an empty list, shown as a quiet note rather than an error. */
  | { status: 'unavailable'; bundles: [] }

export function useBundles(): BundlesState {
  const { apiBaseUrl } = usePublicConfig()
  const query = useQuery(bundlesQuery(apiBaseUrl))
  if (query.isPending) return { status: 'loading', bundles: [] }
  if (!query.data) return { status: 'unavailable', bundles: [] }
  return { status: 'ready', bundles: query.data }
}
