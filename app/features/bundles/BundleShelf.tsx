import { Link } from '@tanstack/react-router'
import { ButtonLink } from '~/components/ui/Button'
import type { Bundle } from '~/contract/bundles'
import { OrnamentArt } from '~/components/OrnamentArt'
import { formatCents } from '~/catalogue/currency'
import { findOrnamentVariant } from '~/catalogue/ornaments'
import { useBundles, type BundlesState } from './bundles-query'

type BundleShelfProps = {
  /** The shelf's heading, an h2. */
  title?: string
}

/** Ornament bundles with their prices, fetched by the browser; after three failed tries it rests quietly. */
export function BundleShelf({ title = 'Bundles' }: BundleShelfProps) {
  return <BundleShelfView state={useBundles()} title={title} />
}

/** The shelf for a given state, so it renders the same wherever the bundles come from. */
export function BundleShelfView({ state, title = 'Bundles' }: { state: BundlesState; title?: string }) {
  return (
    <section
      aria-labelledby="bundle-shelf-heading"
      aria-busy={state.status === 'loading'}
      className="mx-auto max-w-6xl px-4 py-10 sm:px-6"
      data-state={state.status}
    >
      <h2 id="bundle-shelf-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        {title}
      </h2>
      {state.status === 'unavailable' ? null : (
        <p className="mt-2 max-w-2xl text-ink-soft">Design the ornaments of a bundle and its price applies in your cart by itself — no code needed.</p>
      )}
      <div className="mt-6">
        {state.status === 'loading' ? (
          <ShelfSkeleton />
        ) : state.bundles.length === 0 ? (
          <ShelfResting />
        ) : (
          <ul className={state.bundles.length > 1 ? 'grid gap-5 lg:grid-cols-2' : 'grid max-w-3xl gap-5'} aria-label="Ornament bundles">
            {state.bundles.map((bundle) => (
              <BundleCard key={bundle.id} bundle={bundle} />
            ))}
          </ul>
        )}
      </div>
    </section>
  )
}

function BundleCard({ bundle }: { bundle: Bundle }) {
  const first = bundle.items[0]
  const start = first ? (findOrnamentVariant(first.variantId)?.name ?? first.title) : null
  return (
    <li className="flex flex-col overflow-hidden rounded-card bg-cream-card shadow-card sm:flex-row" data-testid="bundle-card" data-bundle-id={bundle.id}>
      {/* Artwork only: the heading and description name the ornaments. */}
      <div
        className="flex items-end justify-center bg-gradient-to-b from-cream-deep to-cream-card px-5 pb-3 pt-7 sm:w-72 sm:shrink-0 sm:items-center sm:bg-gradient-to-r sm:py-6"
        aria-hidden="true"
      >
        {bundle.shapes.map((shape, i) => (
          <div key={i} className={`${i === 0 ? '' : '-ml-3 '}${i % 2 === 0 ? '-rotate-6' : 'rotate-6'} drop-shadow-md`}>
            <OrnamentArt shape={shape} className="h-24 w-auto sm:h-28" />
          </div>
        ))}
      </div>
      <div className="flex flex-1 flex-col p-5">
        <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
          <h3 className="text-xl font-semibold">{bundle.title}</h3>
          <p className="rounded-full bg-pine-tint px-3 py-0.5 text-sm font-semibold text-pine-dark" data-testid="bundle-savings">
            Save {formatCents(bundle.savingsCents)}
          </p>
        </div>
        <p className="mt-1 text-ink-soft">{bundle.description}</p>
        <p className="mt-4 flex flex-wrap items-baseline gap-x-2">
          <span className="sr-only">Bundle price </span>
          <span className="text-2xl font-bold text-cranberry tabular-nums" data-testid="bundle-price">
            {formatCents(bundle.bundlePriceCents)}
          </span>
          <span className="sr-only">, instead of </span>
          <s className="text-ink-soft tabular-nums" data-testid="bundle-regular-price">
            {formatCents(bundle.regularPriceCents)}
          </s>
        </p>
        {first && start ? (
          <ButtonLink
            to="/photo-products/ornaments/$variantId"
            params={{ variantId: String(first.variantId) }}
            className="mt-4 self-start"
            aria-label={`${bundle.title}: start with the ${start}`}
          >
            Start with the {start}
          </ButtonLink>
        ) : null}
      </div>
    </li>
  )
}

function ShelfSkeleton() {
  return (
    <div data-testid="bundles-loading">
      <p className="sr-only" role="status">
        Loading bundles…
      </p>
      <div className="flex max-w-3xl flex-col overflow-hidden rounded-card bg-cream-card shadow-card sm:flex-row" aria-hidden="true">
        <div className="h-36 animate-pulse bg-cream-deep motion-reduce:animate-none sm:h-auto sm:w-72" />
        <div className="flex-1 space-y-3 p-5">
          <div className="h-6 w-2/5 animate-pulse rounded-full bg-cream-deep motion-reduce:animate-none" />
          <div className="h-4 w-4/5 animate-pulse rounded-full bg-cream-deep motion-reduce:animate-none" />
          <div className="h-8 w-1/3 animate-pulse rounded-full bg-cream-deep motion-reduce:animate-none" />
          <div className="h-11 w-44 animate-pulse rounded-full bg-cream-deep motion-reduce:animate-none" />
        </div>
      </div>
    </div>
  )
}

/** No bundles (three tries failed, or none on sale): a quiet note, never an error. */
function ShelfResting() {
  return (
    <p className="max-w-3xl rounded-card border-2 border-dashed border-ink/15 bg-cream-card/60 px-5 py-6 text-ink-soft" data-testid="bundles-empty">
      Bundles are taking a break — ornaments are still available.{' '}
      <Link to="/photo-products" className="font-semibold text-cranberry underline underline-offset-4">
        Shop ornaments
      </Link>
    </p>
  )
}
