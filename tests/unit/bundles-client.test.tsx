import { createMemoryHistory, createRootRoute, createRouter, RouterContextProvider } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { storeBundles } from '../../app/api/services/bundles'
import type { Bundle } from '../../app/contract/bundles'
import { bundleHint } from '../../app/features/bundles/bundle-hint'
import { BundleShelfView } from '../../app/features/bundles/BundleShelf'
import { BUNDLES_PATH, loadBundles } from '../../app/features/bundles/bundles-query'
import { TotalsList } from '../../app/features/cart/Totals'
import { variantOfShape, type OrnamentShape } from '../../app/catalogue/ornaments'
import { cartTotals, toCents } from '../../app/catalogue/pricing'

const bundles = [...storeBundles] as Bundle[]
/** A second, overlapping bundle, for the hint's choice between them. */
const twoStars: Bundle = {
  id: 'two-stars',
  title: 'Two stars',
  description: 'Two Star pairs.',
  items: [{ variantId: 72965, quantity: 2, title: 'Star Photo Ornament', shape: 'star' }],
  currency: 'usd',
  bundlePriceCents: 4398,
  regularPriceCents: 4998,
  savingsCents: 600,
  shapes: ['star', 'star'],
}
const ok = () => new Response(JSON.stringify({ bundles }), { status: 200, headers: { 'content-type': 'application/json' } })

describe('loading bundles in the browser (SPEC.md §8)', () => {
  it('asks the same origin once, with credentials, and answers the bundles', async () => {
    const fetch = vi.fn(async () => ok())
    const sleep = vi.fn(async () => {})
    expect(await loadBundles('', { fetch, sleep })).toEqual(bundles)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledWith(BUNDLES_PATH, expect.objectContaining({ credentials: 'include' }))
    expect(sleep).not.toHaveBeenCalled()
  })

  it('tries 3 times, 2 s then 4 s apart, and then answers null instead of failing', async () => {
    const fetch = vi.fn(async () => new Response('busy', { status: 503 }))
    const sleep = vi.fn(async (_ms: number) => {})
    expect(await loadBundles('https://api.example', { fetch, sleep })).toBeNull()
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(fetch).toHaveBeenCalledWith(`https://api.example${BUNDLES_PATH}`, expect.anything())
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([2000, 4000])
  })

  it('counts a network failure or an answer of the wrong shape as a failed try', async () => {
    const answers = [() => Promise.reject(new TypeError('Failed to fetch')), async () => new Response('{"bundles":[{"id":1}]}'), async () => ok()]
    const fetch = vi.fn(() => answers.shift()!())
    expect(await loadBundles('', { fetch, sleep: async () => {} })).toEqual(bundles)
    expect(fetch).toHaveBeenCalledTimes(3)
  })
})

const line = (shape: OrnamentShape, quantity = 1) => {
  const v = variantOfShape(shape)
  return { priceCents: toCents(v.price), salePriceCents: toCents(v.salePrice), quantity, variantId: v.id }
}

describe('the cart’s bundle hint', () => {
  it('names the one ornament that would complete a bundle', () => {
    const hint = bundleHint([line('tree'), line('star')], bundles)
    expect(hint?.bundle.id).toBe('whole-set')
    expect(hint?.missing).toMatchObject({ variantId: 72960, title: 'Stocking Photo Ornament' })
    expect(bundleHint([line('star')], [...bundles, twoStars])).toMatchObject({ bundle: { id: 'two-stars' }, missing: { variantId: 72965 } })
    // One ornament from both: the bigger saving is named.
    expect(bundleHint([line('tree'), line('star')], [twoStars, ...bundles])?.bundle.id).toBe('whole-set')
  })

  it('stays quiet when no bundle is one ornament away', () => {
    expect(bundleHint([], bundles)).toBeNull()
    expect(bundleHint([line('tree')], bundles)).toBeNull()
    expect(bundleHint([line('star', 4)], bundles)).toBeNull()
    expect(bundleHint([line('tree'), line('star'), line('stocking')], bundles)).toBeNull()
    expect(bundleHint([line('tree'), line('star')], [])).toBeNull()
  })

  it('looks only at what complete sets leave over', () => {
    // A whole set plus a tree and a star: the leftovers are a stocking short of a second set.
    expect(bundleHint([line('tree', 2), line('star', 2), line('stocking')], bundles)).toMatchObject({
      bundle: { id: 'whole-set' },
      missing: { variantId: 72960 },
    })
  })
})

function withRouter(children: ReactNode) {
  const router = createRouter({ routeTree: createRootRoute(), history: createMemoryHistory({ initialEntries: ['/loop/store'] }) })
  return renderToStaticMarkup(<RouterContextProvider router={router}>{children}</RouterContextProvider>)
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('the bundle shelf', () => {
  it('shows each bundle with its price, the struck-through regular price, the saving and a way into the designer', () => {
    const html = withRouter(<BundleShelfView state={{ status: 'ready', bundles: [...bundles, twoStars] }} />)
    expect(html.match(/data-testid="bundle-card"/g)).toHaveLength(2)
    expect(text(html)).toContain('The whole set Save $8.00')
    expect(html).toMatch(/data-testid="bundle-price">\$69\.97</)
    expect(html).toMatch(/<s [^>]*data-testid="bundle-regular-price">\$77\.97<\/s>/)
    expect(html).toContain('href="/photo-products/ornaments/72963"')
    expect(text(html)).toContain('Start with the Tree')
    expect(html).toContain('href="/photo-products/ornaments/72965"')
    expect(html.match(/aria-label="star ornament"/g)).toHaveLength(3)
    expect(html).not.toContain('bundles-empty')
  })

  it('shows a skeleton while loading and a quiet note after the last failed try', () => {
    const loading = withRouter(<BundleShelfView state={{ status: 'loading', bundles: [] }} />)
    expect(loading).toContain('data-testid="bundles-loading"')
    expect(loading).toContain('aria-busy="true"')
    expect(loading).not.toContain('bundle-card')
    const resting = withRouter(<BundleShelfView state={{ status: 'unavailable', bundles: [] }} />)
    expect(text(resting)).toContain('Bundles are taking a break — ornaments are still available.')
    expect(resting).toContain('href="/photo-products"')
    expect(resting).not.toContain('role="alert"')
  })
})

describe('totals with a bundle (cart, checkout and order pages)', () => {
  it('list the bundle savings with the sets they came from', () => {
    const html = renderToStaticMarkup(<TotalsList totals={cartTotals([line('tree'), line('star'), line('stocking')], 0, bundles)} />)
    expect(text(html)).toContain('Bundle savings The whole set × 1 −$8.00')
    expect(html).toMatch(/data-testid="total">\$69\.97</)
  })

  it('leave the line out when no set is complete', () => {
    const html = renderToStaticMarkup(<TotalsList totals={cartTotals([line('tree'), line('star')], 0, bundles)} />)
    expect(html).not.toContain('Bundle savings')
  })
})
