import { useRouterState } from '@tanstack/react-router'
import { useState } from 'react'
import { buttonClass } from '~/components/ui/Button'
import type { SmokescreenProduct } from '~/contract/smokescreens'
import { usePublicConfig } from '~/lib/public-config'
import { smokescreenCopy, smokescreenOrder } from '../../catalogue/smokescreen-products'
import { SmokescreenArt } from './SmokescreenArt'
import { SmokescreenDialog } from './SmokescreenDialog'
import { DeliveryForm, WaitlistForm } from './SmokescreenForms'

type Request = { product: SmokescreenProduct; kind: 'waitlist' | 'delivery' }

const tints = {
  gold: 'bg-gold-tint',
  pine: 'bg-pine-tint',
  cranberry: 'bg-cranberry-tint',
  cream: 'bg-cream-deep',
} as const

/** Class names per size: the store's full grid, a campaign page's smaller row, and a sheet's. */
const layouts = {
  full: {
    section: 'mx-auto max-w-6xl px-4 py-10 sm:px-6',
    heading: 'text-2xl sm:text-3xl',
    intro: 'max-w-2xl',
    list: 'mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3',
    // Side by side on phones, so five products do not make a long scroll.
    card: 'grid grid-cols-[7rem_1fr] sm:flex sm:flex-col',
    art: 'items-center px-2 py-4 sm:px-6 sm:py-5',
    drawing: 'h-auto w-full sm:h-28 sm:w-auto',
    body: 'p-4 sm:p-5',
    name: 'text-lg',
    blurb: 'text-sm sm:text-base',
    actions: 'flex-col sm:flex-row sm:flex-wrap',
    button: 'px-4 text-sm sm:px-5 sm:text-base',
  },
  compact: {
    section: 'mx-auto max-w-6xl px-4 py-10 sm:px-6',
    heading: 'text-xl sm:text-2xl',
    intro: 'max-w-2xl',
    list: '-mx-4 mt-5 flex snap-x gap-3 overflow-x-auto px-4 pb-3 sm:mx-0 sm:grid sm:grid-cols-3 sm:overflow-visible sm:px-0 lg:grid-cols-5',
    card: 'flex w-56 shrink-0 snap-start flex-col sm:w-auto',
    art: 'px-4 py-3',
    drawing: 'h-20 w-auto',
    body: 'p-4',
    name: 'text-base',
    blurb: 'text-sm',
    actions: 'flex-col',
    button: 'w-full px-4 text-sm',
  },
  // Inside a campaign sheet, whose padding it shares: a swipeable row on phones, a list from `sm` up.
  sheet: {
    section: 'mt-8 border-t border-ink/10 pt-6',
    heading: 'text-lg',
    intro: 'text-sm',
    list: '-mx-5 mt-4 flex snap-x gap-3 overflow-x-auto px-5 pb-3 sm:mx-0 sm:flex-col sm:overflow-visible sm:px-0 sm:pb-0',
    card: 'flex w-52 shrink-0 snap-start flex-col sm:w-auto sm:flex-row',
    art: 'px-4 py-3 sm:w-32 sm:shrink-0 sm:items-center sm:px-3',
    drawing: 'h-20 w-auto',
    body: 'p-4 sm:flex-row sm:items-center sm:gap-4',
    name: 'text-base',
    blurb: 'text-sm',
    actions: 'flex-col sm:mt-0 sm:w-36 sm:shrink-0',
    button: 'w-full px-4 text-sm',
  },
} as const

/**
 * "Coming soon" (issue 7): products we do not sell yet, each with "Notify me" and "Deliver to me",
 * to measure demand. `full` on the store; the smaller `compact` on campaign pages, `sheet` in sheets.
 */
export function ComingSoon({ size = 'full' }: { size?: keyof typeof layouts }) {
  const layout = layouts[size]
  const [request, setRequest] = useState<Request | null>(null)
  // The form's sourcePage: the path only, as the API accepts it.
  const sourcePage = useRouterState({ select: (s) => s.location.pathname })
  const copy = request ? smokescreenCopy[request.product] : null
  const close = () => setRequest(null)
  const { supportEmail } = usePublicConfig()
  return (
    <section id="coming-soon" aria-labelledby="coming-soon-heading" className={layout.section}>
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">In the workshop</p>
      <h2 id="coming-soon-heading" className={`mt-1 font-bold tracking-tight ${layout.heading}`}>
        Coming soon
      </h2>
      <p className={`mt-2 text-ink-soft ${layout.intro}`}>
        {size === 'sheet'
          ? 'Tell us what to make next. Nothing is charged.'
          : 'More ways to hold your photos are on the way. Tell us which you want first: ask to be told when it’s ready, or where you’d want it delivered. Nothing is charged.'}
      </p>
      <ul className={layout.list}>
        {smokescreenOrder.map((product) => {
          const item = smokescreenCopy[product]
          return (
            <li key={product} data-product={product} className={`overflow-hidden rounded-card bg-cream-card shadow-card ${layout.card}`}>
              <div className={`relative flex justify-center ${tints[item.tint]} ${layout.art}`}>
                <SmokescreenArt product={product} className={layout.drawing} />
                <span className="absolute left-2.5 top-2.5 rounded-full bg-cream-card/90 px-2 py-0.5 text-[0.6875rem] font-semibold uppercase tracking-wider text-ink-soft">
                  Soon
                </span>
              </div>
              <div className={`flex flex-1 flex-col ${layout.body}`}>
                <div className="flex-1">
                  <h3 className={`font-semibold ${layout.name}`}>{item.name}</h3>
                  <p className={`mt-1 text-ink-soft ${layout.blurb}`}>{item.blurb}</p>
                </div>
                <div className={`mt-4 flex gap-2 ${layout.actions}`}>
                  <button
                    type="button"
                    className={buttonClass('primary', layout.button)}
                    aria-label={`Notify me about the ${item.name.toLowerCase()}`}
                    onClick={() => setRequest({ product, kind: 'waitlist' })}
                  >
                    Notify me
                  </button>
                  <button
                    type="button"
                    className={buttonClass('secondary', layout.button)}
                    aria-label={`Deliver to me: ${item.name.toLowerCase()}`}
                    onClick={() => setRequest({ product, kind: 'delivery' })}
                  >
                    Deliver to me
                  </button>
                </div>
              </div>
            </li>
          )
        })}
        {size === 'full' ? (
          <li
            className="flex flex-col justify-center rounded-card border-2 border-dashed border-ink/15 bg-cream-card/60 p-6 text-center"
            data-testid="coming-soon-idea"
          >
            <p className="text-lg font-semibold">Something else in mind?</p>
            <p className="mt-1 text-ink-soft">
              Tell us what you’d make from your album: write to{' '}
              <a href={`mailto:${supportEmail}`} className="font-semibold text-cranberry underline">
                {supportEmail}
              </a>
              .
            </p>
          </li>
        ) : null}
      </ul>
      <SmokescreenDialog
        product={request?.product ?? null}
        onClose={close}
        title={
          copy && request?.kind === 'delivery'
            ? `Deliver a ${copy.name.toLowerCase()} to me`
            : `Tell me when the ${copy?.name.toLowerCase() ?? 'product'} is ready`
        }
        description={
          request?.kind === 'delivery'
            ? 'Tell us where you’d want it. Nothing is charged or shipped: it shows us where to launch first, and we’ll e-mail you before anything happens.'
            : 'We’ll send one e-mail when it’s ready to order.'
        }
      >
        {request?.kind === 'waitlist' ? <WaitlistForm key={request.product} product={request.product} sourcePage={sourcePage} onDone={close} /> : null}
        {request?.kind === 'delivery' ? <DeliveryForm key={request.product} product={request.product} onDone={close} /> : null}
      </SmokescreenDialog>
    </section>
  )
}
