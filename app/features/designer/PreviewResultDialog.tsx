import { SignInActions } from '~/components/ui/SignInActions'
import { useLocation } from '@tanstack/react-router'
import { useEffect, useRef, useState, type RefObject } from 'react'
import { Button } from '~/components/ui/Button'
import type { GeneratedPreview } from '~/contract/designs'
import { useAddToCart, type AddToCartProblem } from '~/features/cart/add-to-cart'
import { formatPrice } from '~/catalogue/currency'
import { findOrnamentVariant } from '~/catalogue/ornaments'
import { ornamentSides, personalLineColours } from '~/catalogue/personal-line'
import { DesignerDialog } from './DesignerDialog'
import { PreviewPrintQuality } from './PrintQualityBadge'

type PreviewResultDialogProps = {
  result: GeneratedPreview | null
  shapeName: string
  backSideName: string
  onClose: () => void
  /** The button that asked for the preview: focus goes back to it however the dialog closes. */
  returnFocus?: RefObject<HTMLElement | null>
}

function Mockup({ src, alt, label }: { src: string; alt: string; label: string }) {
  const [loaded, setLoaded] = useState(false)
  return (
    <figure className="overflow-hidden rounded-card bg-cream-card shadow-card">
      <img src={src} alt={alt} onLoad={() => setLoaded(true)} className={`block h-auto w-full ${loaded ? '' : 'min-h-48 animate-pulse bg-cream-deep'}`} />
      <figcaption className="px-4 py-2 text-sm font-semibold text-ink-soft">{label}</figcaption>
    </figure>
  )
}

/** A failed Add to cart, inside the dialog where the shopper is looking, with the action that fixes it. */
function AddProblem({ problem, onRetry }: { problem: AddToCartProblem; onRetry: () => void }) {
  const here = useLocation({ select: (l) => l.href })
  const box = useRef<HTMLDivElement>(null)
  // Read out and in view at once: the button the shopper pressed is right below.
  useEffect(() => box.current?.scrollIntoView({ block: 'nearest' }), [problem])
  return (
    <div ref={box} role="alert" className="mt-4 rounded-card border border-cranberry/30 bg-cranberry/5 px-4 py-3" data-testid="add-to-cart-problem">
      <p className="font-semibold text-cranberry-dark">{problem.message}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        {!problem.signedOut ? (
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        ) : (
          <SignInActions redirect={here} demoLabel="Sign in" />
        )}
      </div>
    </div>
  )
}

/** The print file's lines measured on their photos (decision 058): a line hard to read is said here too, with the way to fix it. */
export function LineContrastNote({ contrast }: { contrast: GeneratedPreview['lineContrast'] }) {
  const poor = ornamentSides.filter((side) => contrast?.[side]?.poor)
  if (!contrast || poor.length === 0) return null
  const where = poor.length === ornamentSides.length ? 'on both ornaments' : `on the ${poor[0]} ornament`
  const best = personalLineColours.find((c) => c.id === contrast[poor[0]!]!.best)?.name ?? 'another colour'
  return (
    <div className="mt-4 rounded-xl border-2 border-gold/50 bg-gold-tint px-3 py-2 text-ink" data-testid="preview-line-contrast">
      <p className="font-semibold">Your line {where} may be hard to read</p>
      <p className="text-sm">Keep editing and choose {best}, or turn on the halo around the letters.</p>
    </div>
  )
}

/** The server's mockups of the design: what will be printed, front and back, and the way into the cart. */
export function PreviewResultDialog({ result, shapeName, backSideName, onClose, returnFocus }: PreviewResultDialogProps) {
  const [front, back] = result?.images ?? []
  const { add, adding, problem } = useAddToCart()
  const variant = result ? findOrnamentVariant(result.variantId) : undefined
  return (
    <DesignerDialog
      size="fit"
      open={result !== null}
      onClose={onClose}
      returnFocus={returnFocus}
      title={`Your ${shapeName} ornaments`}
      description="This is what we’ll print: your photos at full resolution, cut to shape."
    >
      <div className="grid gap-4 md:grid-cols-2" data-testid="preview-result">
        {front ? <Mockup src={front} alt={`The front of your ${shapeName} ornament pair with your two photos`} label="Front" /> : null}
        {back ? <Mockup src={back} alt={`The back of your ${shapeName} ornament pair: ${backSideName}`} label={`Back — ${backSideName}`} /> : null}
      </div>
      {result ? <PreviewPrintQuality quality={result.printQuality} /> : null}
      {result ? <LineContrastNote contrast={result.lineContrast} /> : null}
      <p className="mt-4 text-sm text-ink-soft">
        Colours on screen can look a little brighter than on the glossy print. Something not right? Close this and keep adjusting.
      </p>
      {problem && result ? <AddProblem problem={problem} onRetry={() => void add(result)} /> : null}
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={adding}>
          Keep editing
        </Button>
        <Button onClick={() => result && void add(result)} disabled={adding || !variant}>
          {adding ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {adding ? 'Adding to cart…' : 'Add to cart'}
          {variant && !adding ? <span className="font-normal">· {formatPrice(variant.salePrice)}</span> : null}
        </Button>
      </div>
    </DesignerDialog>
  )
}
