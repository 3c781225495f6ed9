import { useSuspenseQuery } from '@tanstack/react-query'
import { useCallback, useMemo, useReducer, useRef, type KeyboardEvent } from 'react'
import { smartTransform } from '~/compositor/focal-placement'
import { IDENTITY_TRANSFORM } from '~/compositor/layout'
import type { PhotoProduct } from '~/contract/photo-products'
import { ArrivesBy } from '~/features/cart/ArrivalDates'
import { ChristmasDeliveryBanner } from '~/features/cart/ShippingPromise'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'
import { usePublicConfig } from '~/lib/public-config'
import { AdjustControls } from './AdjustControls'
import { designTemplatesQuery } from './api/design-templates.functions'
import { useGeneratePreview } from './api/generate-preview.functions'
import { BackSidePicker } from './BackSidePicker'
import { canPreview, canUndo, designReducer, initialDesign, keyTransform, previewRequestOf, trayHint, type DesignCell } from './design-state'
import { DesignerTray } from './DesignerTray'
import { DesignSharePanel } from './DesignSharePanel'
import { writeDraft } from './draft'
import { PhotoPickerDialog } from './PhotoPickerDialog'
import { PhotoSlots } from './PhotoSlots'
import { PreviewResultDialog } from './PreviewResultDialog'
import { PreviewStage } from './PreviewStage'
import { draftForShape, draftPhotoOf } from './restore-plan'
import { trackShapeChosen, useTrackShapeShown } from './shape-analytics'
import { ShapeChooser } from './ShapeChooser'
import { TextLineControls } from './TextLineControls'
import { useAdjust } from './useAdjust'
import { useCardFlip } from './useCardFlip'
import { useDesignDraft } from './useDesignDraft'
import { useOrnamentPreview } from './useOrnamentPreview'
import { usePinnedPreview } from './usePinnedPreview'
import { usePreviewSync } from './usePreviewSync'

/** The pair's two photo cells in fill order. */
const SLOT_NAMES = ['Left ornament', 'Right ornament']

type Variant = PhotoProduct['variants'][number]

type OrnamentDesignerProps = {
  variantId: number
  /** Arriving from the photo picker: its chosen photos win over an older draft. */
  preferChosenPhotos: boolean
  onChosenPhotosUsed: () => void
}

/**
 * /photo-products/ornaments/$variantId: place two photos on an ornament pair, pick its back, and
 * preview the print. The design and its every change live in the model (design-state.ts); the
 * hooks carry it to storage (useDesignDraft) and to the live preview (usePreviewSync, useCardFlip);
 * this component draws.
 */
export function OrnamentDesigner({ variantId, preferChosenPhotos, onChosenPhotosUsed }: OrnamentDesignerProps) {
  const { data: designs } = useSuspenseQuery(designTemplatesQuery(variantId))
  const { data: product } = useSuspenseQuery(photoProductQuery())
  const { apiBaseUrl, previewLogs } = usePublicConfig()
  const template = designs.templates[0]!
  const backSides = designs.backSides
  const cells = useMemo(() => template.cells.filter((c) => c.type === 'Image').sort((a, b) => a.order - b.order), [template])
  const variant = product.variants.find((v) => v.id === variantId)
  const shapeName = variant?.name ?? 'Photo'
  const slotName = useCallback((cell: DesignCell) => SLOT_NAMES[cells.indexOf(cell)] ?? `Ornament ${cells.indexOf(cell) + 1}`, [cells])

  // A photo starts, and Reset returns it, with its subject where the cell wants it (decision 059).
  const reducer = useMemo(() => designReducer(cells, backSides, smartTransform), [cells, backSides])
  const [state, dispatch] = useReducer(reducer, undefined, () => initialDesign(cells, backSides))
  const { userId, saveNow } = useDesignDraft({ variantId, cells, state, dispatch, preferChosenPhotos, onChosenPhotosUsed })
  useTrackShapeShown(variantId, template.id)

  // The live preview stays in view below the site header while the controls scroll (on phones too,
  // when the screen is tall enough), so every change is seen.
  const paneRef = useRef<HTMLDivElement>(null)
  const trayRef = useRef<HTMLDivElement>(null)
  const previewButton = useRef<HTMLButtonElement>(null)
  const stickyTop = usePinnedPreview(paneRef, trayRef)
  const { hostRef, preview, status, retry } = useOrnamentPreview(template, apiBaseUrl, {
    onGesture: (cellId, transform, phase) => dispatch({ type: phase === 'end' ? 'commit' : 'move', cellId, transform }),
    onSelect: (cellId) => dispatch({ type: 'select', cellId }),
  })
  const { loading, contrast } = usePreviewSync({ preview, state, cells, backSides, slotName, dispatch })
  const flipRef = useCardFlip(preview, state.side)
  const { adjust, cancelSettle } = useAdjust(state, cells, dispatch)

  const onStageKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const cellId = state.selectedCellId
    const t = state.transforms[cellId]
    if (!t || !state.photos[cellId] || event.altKey || event.ctrlKey || event.metaKey) return
    const transform = keyTransform(event.key, event.shiftKey, t)
    if (!transform) return
    event.preventDefault()
    adjust(cellId, transform, 'commit')
  }

  const chooseShape = (target: Variant) => {
    const draft = draftForShape(state, cells, backSides, target.id, userId)
    if (draft) writeDraft(target.id, draft)
    trackShapeChosen(target.id, template.id)
  }

  const generate = useGeneratePreview(previewLogs)
  const makePreview = () => {
    const request = previewRequestOf(state, cells, variantId, template.id)
    if (request && !generate.isPending) generate.mutate(request)
  }

  const selectedCell = cells.find((c) => c.id === state.selectedCellId) ?? cells[0]!
  const pickingCell = cells.find((c) => c.id === state.pickingFor)

  return (
    <main id="main" className="pb-32">
      <div className="mx-auto max-w-6xl px-4 pt-6 sm:px-6 sm:pt-10">
        <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Step 2 of 3</p>
        <h1 className="mt-1 text-balance text-3xl font-bold tracking-tight sm:text-4xl">Design your {shapeName.toLowerCase()} ornaments</h1>
        <p className="mt-2 max-w-2xl text-ink-soft">A matching pair: one photo on the front of each ornament, and the same festive design on both backs.</p>
        <div className="mt-2">
          <ArrivesBy />
        </div>
        <ChristmasDeliveryBanner className="mt-2" />
      </div>

      <div className="mx-auto mt-6 grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-8 px-4 [grid-template-areas:'shape'_'preview'_'controls'] sm:px-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:grid-rows-[auto_1fr] lg:gap-x-10 lg:[grid-template-areas:'preview_shape'_'preview_controls']">
        <div className="[grid-area:shape]">
          <ShapeChooser variants={product.variants} currentVariantId={variantId} onChoose={chooseShape} />
        </div>
        <div
          // The cream band above the card hides what scrolls beneath it while pinned.
          className="z-10 -mt-2 self-start bg-cream pt-2 [grid-area:preview] lg:sticky [@media(min-height:740px)]:sticky"
          ref={paneRef}
          style={{ top: stickyTop }}
          data-testid="preview-pane"
        >
          <PreviewStage
            template={template}
            cells={cells}
            slotName={slotName}
            hostRef={hostRef}
            flipRef={flipRef}
            status={status}
            side={state.side}
            selectedCellId={state.selectedCellId}
            filled={new Set(cells.filter((c) => state.photos[c.id]).map((c) => c.id))}
            loading={new Set(loading.keys())}
            photos={state.photos}
            transforms={state.transforms}
            onSide={(side) => dispatch({ type: 'showSide', side })}
            onKeyDown={onStageKeyDown}
            onChoose={(cellId) => dispatch({ type: 'pick', cellId })}
            onRetry={retry}
          />
        </div>
        <div className="space-y-8 [grid-area:controls]">
          <PhotoSlots
            cells={cells}
            slotName={slotName}
            photos={state.photos}
            transforms={state.transforms}
            selectedCellId={state.selectedCellId}
            restored={state.restored}
            onSelect={(cellId) => dispatch({ type: 'select', cellId })}
            onChoose={(cellId) => dispatch({ type: 'pick', cellId })}
          />
          <AdjustControls
            slotName={slotName(selectedCell)}
            transform={state.transforms[selectedCell.id] ?? IDENTITY_TRANSFORM}
            hasPhoto={Boolean(state.photos[selectedCell.id])}
            canUndo={canUndo(state, selectedCell.id)}
            onChange={(next, mode) => adjust(selectedCell.id, next, mode)}
            onUndo={() => {
              cancelSettle()
              dispatch({ type: 'undo', cellId: selectedCell.id })
            }}
            onReset={() => {
              cancelSettle()
              dispatch({ type: 'reset', cellId: selectedCell.id })
            }}
          />
          <TextLineControls
            // Remounted once the draft is restored, so the field starts from the restored line.
            key={state.restored ? 'restored' : 'initial'}
            text={state.text}
            contrast={contrast ?? undefined}
            onChange={(text) => dispatch({ type: 'text', text })}
            onProblem={(refused) => dispatch({ type: 'textRefused', refused })}
          />
          <BackSidePicker backSides={backSides} selectedId={state.backSideId} onSelect={(b) => dispatch({ type: 'backSide', backSideId: b.id })} />
          <DesignSharePanel variantId={variantId} saveNow={saveNow} />
        </div>
      </div>

      <DesignerTray
        trayRef={trayRef}
        buttonRef={previewButton}
        shapeName={shapeName}
        variant={variant}
        hint={trayHint(state, cells, generate.isPending)}
        working={generate.isPending}
        canPreview={canPreview(state, cells)}
        onPreview={makePreview}
      />
      <PhotoPickerDialog
        slotName={pickingCell ? slotName(pickingCell).toLowerCase() : null}
        onClose={() => dispatch({ type: 'pick', cellId: null })}
        onPick={(photo) => state.pickingFor && dispatch({ type: 'choosePhoto', cellId: state.pickingFor, photo: draftPhotoOf(photo) })}
      />
      <PreviewResultDialog
        key={generate.data?.previewId ?? 'none'}
        result={generate.data ?? null}
        shapeName={shapeName.toLowerCase()}
        backSideName={backSides.find((b) => b.id === state.backSideId)?.name ?? ''}
        onClose={generate.reset}
        returnFocus={previewButton}
      />
    </main>
  )
}
