import type { Ref, RefObject } from 'react'
import { formatPrice } from '~/catalogue/currency'
import { Button } from '~/components/ui/Button'
import type { PhotoProduct } from '~/contract/photo-products'

type DesignerTrayProps = {
  trayRef: RefObject<HTMLDivElement | null>
  buttonRef: Ref<HTMLButtonElement>
  shapeName: string
  variant: PhotoProduct['variants'][number] | undefined
  hint: string
  working: boolean
  canPreview: boolean
  onPreview: () => void
}

/** The bar along the bottom: the pair's price, what is still missing, and "Preview my ornament". */
export function DesignerTray({ trayRef, buttonRef, shapeName, variant, hint, working, canPreview, onPreview }: DesignerTrayProps) {
  return (
    <div ref={trayRef} className="fixed inset-x-0 bottom-0 z-20 border-t border-ink/10 bg-cream-card/95 backdrop-blur" data-testid="designer-tray">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
        <div className="min-w-0 flex-1">
          <p className="font-semibold leading-tight">
            <span className="hidden min-[480px]:inline">{shapeName} pair </span>
            {variant ? (
              <>
                <span className="text-cranberry">{formatPrice(variant.salePrice)}</span>{' '}
                <s className="text-sm font-normal text-ink-soft" aria-label={`was ${formatPrice(variant.price)}`}>
                  {formatPrice(variant.price)}
                </s>
              </>
            ) : null}
          </p>
          <p id="preview-button-hint" className="text-sm leading-snug text-ink-soft" role="status">
            {hint}
          </p>
        </div>
        <Button ref={buttonRef} onClick={onPreview} disabled={!canPreview || working} aria-describedby="preview-button-hint" className="shrink-0 px-5">
          {working ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {working ? 'Making preview…' : 'Preview my ornament'}
        </Button>
      </div>
    </div>
  )
}
