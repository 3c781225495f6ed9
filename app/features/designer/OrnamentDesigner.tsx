import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent, type RefObject } from 'react'
import { MAX_ZOOM } from '~/catalogue/ornaments'
import { IDENTITY_TRANSFORM, type PhotoTransform } from '~/compositor/layout'
import type { OrnamentPreview } from '~/compositor/pixi-preview'
import { Button } from '~/components/ui/Button'
import type { GeneratedPreview, GeneratePreviewRequest } from '~/contract/designs'
import type { PhotoProduct } from '~/contract/photo-products'
import { currentUserQuery } from '~/features/account/account.functions'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'
import { useChosenPhotos } from '~/features/photos/chosen-photos'
import { track } from '~/lib/analytics'
import { formatPrice } from '~/catalogue/currency'
import { ArrivesBy } from '~/features/cart/ArrivalDates'
import { ChristmasDeliveryBanner } from '~/features/cart/ShippingPromise'
import { backSides as catalogueBackSides, findOrnamentVariant, photoCells, templateForVariant } from '~/catalogue/ornaments'
import { urlAtSize, type ChosenPhoto } from '~/lib/photo-conversion'
import { usePublicConfig } from '~/lib/public-config'
import { notify } from '~/lib/toast'
import { pushDraft } from './account-drafts'
import { AdjustControls, ZOOM_STEP, type AdjustMode } from './AdjustControls'
import { BackSidePicker } from './BackSidePicker'
import { canUndo, clampFor, designReducer, draftOf, initialDesign, type BackSide, type DesignCell } from './design-state'
import { designTemplatesQuery, generateOrnamentPreview } from './designer.functions'
import { readDraft, removeDraft, writeDraft, type Draft, type DraftPhoto } from './draft'
import { reconcile } from './draft-merge'
import { PhotoPickerDialog } from './PhotoPickerDialog'
import { PhotoSlots } from './PhotoSlots'
import { PreviewResultDialog } from './PreviewResultDialog'
import { PreviewStage, type PreviewSide } from './PreviewStage'
import { savedDesignsQuery } from './saved-designs.functions'
import { DesignSharePanel } from './DesignSharePanel'
import { ShapeChooser } from './ShapeChooser'
import { TextLineControls } from './TextLineControls'
import { useOrnamentPreview } from './useOrnamentPreview'

/** The pair's two photo cells in fill order. */
const SLOT_NAMES = ['Left ornament', 'Right ornament']

/** Keyboard steps on the preview, in template pixels and degrees. */
const KEY_MOVE = 20
const KEY_MOVE_FAR = 100
const KEY_ROTATE = 5

/** A slider or wheel change joins the undo history once it has settled this long. */
const SETTLE_MS = 400

type Variant = PhotoProduct['variants'][number]

/** A signed-in shopper's committed changes are saved to the account once they pause this long. */
const ACCOUNT_SAVE_MS = 800

/** The variant whose DidSelectPodTemplate the shape chooser already tracked, so its page does not track it twice. */
let shapeChosenByClick: number | null = null

const draftPhotoOf = (photo: ChosenPhoto): DraftPhoto => ({
  id: photo.id,
  // A chosen photo's url is its smartphone rendition (the preview's texture); width and height are the original's.
  url: urlAtSize(photo.url, 'smartphone') ?? photo.url,
  width: photo.width,
  height: photo.height,
})

/** Tasks run one after another per preview and key, so a slow load never lands after a newer one. */
function useSerialTasks() {
  const chains = useRef(new WeakMap<object, Map<string, Promise<unknown>>>())
  return useCallback(<T,>(owner: object, key: string, task: () => Promise<T>): Promise<T> => {
    let byKey = chains.current.get(owner)
    if (!byKey) chains.current.set(owner, (byKey = new Map()))
    const next = (byKey.get(key) ?? Promise.resolve()).then(task, task)
    byKey.set(
      key,
      next.catch(() => undefined),
    )
    return next
  }, [])
}

/**
 * The preview pane is pinned just below the sticky site header. While it is pinned above the
 * controls (phones), the page's scroll padding grows by its height, and by the tray's at the
 * bottom, so a control scrolled to or focused is never hidden behind either.
 */
function usePinnedPreview(pane: RefObject<HTMLElement | null>, tray: RefObject<HTMLElement | null>) {
  const [top, setTop] = useState(0)
  useEffect(() => {
    const header = document.querySelector('header')
    const root = document.documentElement
    const sideBySide = window.matchMedia('(min-width: 1024px)')
    const update = () => {
      const headerHeight = header?.getBoundingClientRect().height ?? 0
      setTop(headerHeight)
      const pinnedAbove = pane.current && !sideBySide.matches && getComputedStyle(pane.current).position === 'sticky'
      root.style.scrollPaddingTop = `${headerHeight + (pinnedAbove ? pane.current!.getBoundingClientRect().height : 0) + 8}px`
      root.style.scrollPaddingBottom = `${(tray.current?.getBoundingClientRect().height ?? 0) + 8}px`
    }
    update()
    const observer = new ResizeObserver(update)
    for (const el of [header, pane.current, tray.current]) if (el) observer.observe(el)
    window.addEventListener('resize', update)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', update)
      root.style.scrollPaddingTop = ''
      root.style.scrollPaddingBottom = ''
    }
  }, [pane, tray])
  return top
}

type OrnamentDesignerProps = {
  variantId: number
  /** Arriving from the photo picker: its chosen photos win over an older draft. */
  preferChosenPhotos: boolean
  onChosenPhotosUsed: () => void
}

/** /photo-products/ornaments/$variantId: place two photos on an ornament pair, pick its back, and preview the print. */
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

  const reducer = useMemo(() => designReducer(cells, backSides), [cells, backSides])
  const [state, dispatch] = useReducer(reducer, undefined, () => initialDesign(cells, backSides))
  const stateRef = useRef(state)
  const previewButton = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    stateRef.current = state
  })

  // ---- The draft: read once on the client (with the account's copy when signed in), then saved after
  // every committed change, on this device and, signed in, to the account (decision 033).
  const [chosen] = useChosenPhotos()
  const { data: user, isPending: userPending } = useQuery(currentUserQuery())
  const userId = user?.id ?? null
  const saved = useQuery({ ...savedDesignsQuery(), enabled: Boolean(userId) })
  const accountKnown = !userPending && (!userId || !saved.isPending)
  const [storageRead, setStorageRead] = useState(false)
  const draftRead = useRef<Draft | null>(null)
  /** The design as last restored or saved, so restoring is not taken for a change; null until restored. */
  const savedContent = useRef<string | null>(null)
  const restoredFromChosen = useRef(false)
  useEffect(() => {
    draftRead.current = readDraft(variantId)
    setStorageRead(true)
  }, [variantId])
  useEffect(() => {
    // The chosen photos were read from sessionStorage in the same commit as the draft, so both are known here.
    if (!storageRead || !accountKnown || state.restored) return
    let draft = draftRead.current
    if (userId && saved.data) {
      const merged = reconcile(
        userId,
        draft,
        saved.data.find((d) => d.variantId === variantId),
      )
      if (merged.drop) removeDraft(variantId)
      if (merged.push && draft) void pushDraft(variantId, draft, userId)
      draft = merged.draft
    }
    const draftHasPhotos = Object.keys(draft?.photos ?? {}).length > 0
    if (chosen.length > 0 && (preferChosenPhotos || !draftHasPhotos)) {
      const photos: Draft['photos'] = {}
      const transforms: Draft['transforms'] = {}
      cells.forEach((cell, i) => {
        const photo = chosen[i]
        if (!photo) return
        photos[cell.id] = draftPhotoOf(photo)
        const kept = draft?.photos[cell.id]?.id === photo.id ? draft.transforms[cell.id] : undefined
        if (kept) transforms[cell.id] = kept
      })
      restoredFromChosen.current = true
      dispatch({ type: 'restore', photos, transforms, backSideId: draft?.backSideId ?? null, text: draft?.text ?? null })
    } else {
      dispatch({
        type: 'restore',
        photos: draft?.photos ?? {},
        transforms: draft?.transforms ?? {},
        backSideId: draft?.backSideId ?? null,
        text: draft?.text ?? null,
      })
    }
    if (preferChosenPhotos) onChosenPhotosUsed()
  }, [storageRead, accountKnown, userId, saved.data, variantId, state.restored, chosen, cells, preferChosenPhotos, onChosenPhotosUsed])

  const accountSave = useRef<{ timer: number; run: () => Promise<unknown> } | null>(null)
  const flushAccountSave = useCallback(async () => {
    const pending = accountSave.current
    accountSave.current = null
    if (!pending) return
    window.clearTimeout(pending.timer)
    await pending.run()
  }, [])
  useEffect(() => () => void flushAccountSave(), [flushAccountSave])
  useEffect(() => {
    if (!state.restored) return
    const draft = draftOf(state)
    const content = JSON.stringify(draft)
    const unchanged = savedContent.current === null ? !restoredFromChosen.current : savedContent.current === content
    savedContent.current = content
    // Only committed changes are saved (history, not the live transforms): a drag in progress is not.
    if (unchanged) return
    const edited: Draft = { ...draft, editedAt: new Date().toISOString(), owner: userId, synced: false }
    writeDraft(variantId, edited)
    if (!userId) return
    if (accountSave.current) window.clearTimeout(accountSave.current.timer)
    const run = () => pushDraft(variantId, edited, userId)
    accountSave.current = { run, timer: window.setTimeout(() => void flushAccountSave(), ACCOUNT_SAVE_MS) }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [variantId, userId, state.restored, state.photos, state.history, state.backSideId, state.text])

  // ---- Analytics: the shape shown, once per page (the chooser tracks its own clicks).
  const trackedShape = useRef(false)
  useEffect(() => {
    if (trackedShape.current) return
    trackedShape.current = true
    if (shapeChosenByClick === variantId) {
      shapeChosenByClick = null
      return
    }
    track('DidSelectPodTemplate', { variantId, pseudoTemplateId: template.id, source: 'page' })
  }, [variantId, template.id])

  // ---- The live preview and the side it shows. It stays in view below the site header while the
  // controls scroll (on phones too, when the screen is tall enough), so every change is seen.
  const paneRef = useRef<HTMLDivElement>(null)
  const trayRef = useRef<HTMLDivElement>(null)
  const stickyTop = usePinnedPreview(paneRef, trayRef)
  const [side, setSide] = useState<PreviewSide>('front')
  const sideRef = useRef<PreviewSide>('front')
  const flipRef = useRef<HTMLDivElement>(null)
  const previewRef = useRef<OrnamentPreview | null>(null)

  const flipTo = useCallback((next: PreviewSide) => {
    if (sideRef.current === next) return
    sideRef.current = next
    setSide(next)
    const show = () => previewRef.current?.showSide(sideRef.current)
    const el = flipRef.current
    if (!el || typeof el.animate !== 'function' || window.matchMedia('(prefers-reduced-motion: reduce)').matches) return show()
    // A card turning over: the first half hides the old side edge-on, the second reveals the new one.
    el.animate([{ transform: 'perspective(1600px) rotateY(0deg)' }, { transform: 'perspective(1600px) rotateY(90deg)' }], { duration: 140, easing: 'ease-in' })
      .finished.then(() => {
        show()
        el.animate([{ transform: 'perspective(1600px) rotateY(-90deg)' }, { transform: 'perspective(1600px) rotateY(0deg)' }], {
          duration: 160,
          easing: 'ease-out',
        })
      })
      .catch(show)
  }, [])

  const { hostRef, preview, status, retry } = useOrnamentPreview(template, apiBaseUrl, {
    onGesture: (cellId, transform, phase) => {
      dispatch({ type: phase === 'end' ? 'commit' : 'move', cellId, transform })
    },
    onSelect: (cellId) => {
      dispatch({ type: 'select', cellId })
      flipTo('front')
    },
  })
  useEffect(() => {
    previewRef.current = preview
    preview?.showSide(sideRef.current)
  }, [preview])

  const serial = useSerialTasks()
  const appliedUrls = useRef(new WeakMap<OrnamentPreview, Map<string, string | null>>())
  const [loadingCells, setLoadingCells] = useState<Map<string, string>>(new Map())
  useEffect(() => {
    if (!preview) return
    let applied = appliedUrls.current.get(preview)
    if (!applied) appliedUrls.current.set(preview, (applied = new Map()))
    const current = applied
    for (const cell of cells) {
      const url = state.photos[cell.id]?.url ?? null
      if ((current.get(cell.id) ?? null) === url) continue
      current.set(cell.id, url)
      setLoadingCells((prev) => {
        const next = new Map(prev)
        if (url) next.set(cell.id, url)
        else next.delete(cell.id)
        return next
      })
      serial(preview, cell.id, async () => {
        if (current.get(cell.id) !== url || previewRef.current !== preview) return
        await preview.setPhoto(cell.id, url, stateRef.current.transforms[cell.id])
        // The shopper may have adjusted it while it loaded.
        if (url) preview.setTransform(cell.id, stateRef.current.transforms[cell.id] ?? IDENTITY_TRANSFORM)
      })
        .catch((error: unknown) => {
          if (previewRef.current !== preview || current.get(cell.id) !== url) return
          current.delete(cell.id)
          console.error('A photo could not be drawn in the preview', error)
          notify.error(`The photo for the ${slotName(cell).toLowerCase()} could not be shown in the preview. Check your connection and choose it again.`)
        })
        .finally(() =>
          setLoadingCells((prev) => {
            if (prev.get(cell.id) !== url) return prev
            const next = new Map(prev)
            next.delete(cell.id)
            return next
          }),
        )
    }
  }, [preview, state.photos, cells, serial, slotName])

  useEffect(() => {
    if (!preview) return
    for (const cell of cells) {
      const t = state.transforms[cell.id]
      if (t && preview.photoSizeOf(cell.id)) preview.setTransform(cell.id, t)
    }
  }, [preview, state.transforms, cells])

  const flipToBackWhenLoaded = useRef(false)
  useEffect(() => {
    if (!preview) return
    const backSide = backSides.find((b) => b.id === state.backSideId)
    if (!backSide) return
    const flip = flipToBackWhenLoaded.current
    flipToBackWhenLoaded.current = false
    serial(preview, 'back-side', () => preview.setBackSide(backSide.backsideUrl)).then(
      () => {
        if (flip && previewRef.current === preview && stateRef.current.backSideId === backSide.id) flipTo('back')
      },
      (error: unknown) => {
        if (previewRef.current !== preview) return
        console.error('A back side could not be drawn in the preview', error)
        notify.error(`The ${backSide.name} back could not be shown in the preview. Check your connection and choose it again.`)
      },
    )
  }, [preview, state.backSideId, backSides, serial, flipTo])

  useEffect(() => {
    if (!preview) return
    const text = state.text
    serial(preview, 'text', () => preview.setText(text)).catch((error: unknown) => {
      if (previewRef.current !== preview) return
      console.error('The personal line could not be drawn in the preview', error)
      notify.error('Your text could not be shown in the preview. Check your connection and try again.')
    })
  }, [preview, state.text, serial])

  // ---- Adjusting the photos.
  const settleTimer = useRef(0)
  const adjust = (cellId: string, next: PhotoTransform, mode: AdjustMode) => {
    const cell = cells.find((c) => c.id === cellId)
    const photo = state.photos[cellId]
    if (!cell || !photo) return
    const transform = clampFor(cell, photo, next)
    window.clearTimeout(settleTimer.current)
    if (mode === 'commit') {
      dispatch({ type: 'commit', cellId, transform })
    } else {
      dispatch({ type: 'move', cellId, transform })
      settleTimer.current = window.setTimeout(() => dispatch({ type: 'commit', cellId }), SETTLE_MS)
    }
    flipTo('front')
  }
  useEffect(() => () => window.clearTimeout(settleTimer.current), [])

  const onStageKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const cellId = state.selectedCellId
    const t = state.transforms[cellId]
    if (!t || !state.photos[cellId] || event.altKey || event.ctrlKey || event.metaKey) return
    const step = event.shiftKey ? KEY_MOVE_FAR : KEY_MOVE
    const next: Partial<Record<string, PhotoTransform>> = {
      ArrowLeft: { ...t, x: t.x - step },
      ArrowRight: { ...t, x: t.x + step },
      ArrowUp: { ...t, y: t.y - step },
      ArrowDown: { ...t, y: t.y + step },
      '+': { ...t, zoom: Math.min(MAX_ZOOM, t.zoom + ZOOM_STEP) },
      '=': { ...t, zoom: Math.min(MAX_ZOOM, t.zoom + ZOOM_STEP) },
      '-': { ...t, zoom: Math.max(1, t.zoom - ZOOM_STEP) },
      _: { ...t, zoom: Math.max(1, t.zoom - ZOOM_STEP) },
      '[': { ...t, rotation: t.rotation - KEY_ROTATE },
      ']': { ...t, rotation: t.rotation + KEY_ROTATE },
    }
    const transform = next[event.key]
    if (!transform) return
    event.preventDefault()
    adjust(cellId, transform, 'commit')
  }

  // ---- Choosing photos, shapes and back sides.
  const [pickingFor, setPickingFor] = useState<string | null>(null)
  const pickingCell = cells.find((c) => c.id === pickingFor)
  const choosePhoto = (photo: ChosenPhoto) => {
    if (!pickingFor) return
    dispatch({ type: 'choosePhoto', cellId: pickingFor, photo: draftPhotoOf(photo) })
    setPickingFor(null)
    flipTo('front')
  }

  const chooseShape = (target: Variant) => {
    const targetTemplate = templateForVariant(target.id)
    const targetVariant = findOrnamentVariant(target.id)
    if (!targetTemplate || !targetVariant) return
    // The photos travel to the new shape in the same order; their placement starts afresh.
    const photos: Draft['photos'] = {}
    photoCells(targetTemplate).forEach((targetCell, i) => {
      const photo = cells[i] && state.photos[cells[i].id]
      if (photo) photos[targetCell.id] = photo
    })
    if (Object.keys(photos).length > 0) {
      const designNumber = backSides.find((b) => b.id === state.backSideId)?.backsideId
      const backSideId = catalogueBackSides[targetVariant.shape].find((b) => b.backsideId === designNumber)?.id ?? null
      writeDraft(target.id, {
        photos,
        transforms: {},
        backSideId,
        ...(state.text ? { text: state.text } : {}),
        editedAt: new Date().toISOString(),
        owner: userId,
        synced: false,
      })
    }
    shapeChosenByClick = target.id
    track('DidSelectPodTemplate', { variantId: target.id, pseudoTemplateId: targetTemplate.id, source: 'shape-chooser' })
  }

  const chooseBackSide = (backSide: BackSide) => {
    if (backSide.id === state.backSideId) return flipTo('back')
    flipToBackWhenLoaded.current = true
    dispatch({ type: 'backSide', backSideId: backSide.id })
  }

  // ---- The server's preview of the print.
  const [working, setWorking] = useState(false)
  const workingRef = useRef(false)
  const [result, setResult] = useState<GeneratedPreview | null>(null)
  const [textRefused, setTextRefused] = useState(false)
  const allPlaced = state.restored && cells.every((c) => state.photos[c.id])
  const backSideName = backSides.find((b) => b.id === state.backSideId)?.name ?? ''

  const makePreview = async () => {
    if (workingRef.current) return
    const current = stateRef.current
    if (!cells.every((c) => current.photos[c.id]) || textRefused) return
    const request: GeneratePreviewRequest = {
      variantId,
      pseudoTemplateId: template.id,
      backSideId: current.backSideId,
      cells: cells.map((c) => ({ cellId: c.id, photoId: current.photos[c.id]!.id, transform: current.transforms[c.id] ?? IDENTITY_TRANSFORM })),
      ...(current.text ? { text: current.text } : {}),
    }
    workingRef.current = true
    setWorking(true)
    if (previewLogs) console.info('[keepsake] generate-preview request', request)
    try {
      const response = await generateOrnamentPreview({ data: request })
      if (previewLogs) console.info('[keepsake] generate-preview response', response)
      track('PodPreviewSuccess', { variantId, pseudoTemplateId: template.id, backSideId: request.backSideId, previewId: response.previewId })
      setResult(response)
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Unknown error'
      if (previewLogs) console.info('[keepsake] generate-preview failed', error)
      track('PodPreviewFailure', { variantId, pseudoTemplateId: template.id, backSideId: request.backSideId, message: message.slice(0, 500) })
      notify.error(`We could not make your preview: ${message}`, { label: 'Retry', onClick: () => void makePreview() })
    } finally {
      workingRef.current = false
      setWorking(false)
    }
  }

  const selectedCell = cells.find((c) => c.id === state.selectedCellId) ?? cells[0]!
  const filled = new Set(cells.filter((c) => state.photos[c.id]).map((c) => c.id))
  const placedCount = filled.size

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
            side={side}
            selectedCellId={state.selectedCellId}
            filled={filled}
            loading={new Set(loadingCells.keys())}
            onSide={flipTo}
            onKeyDown={onStageKeyDown}
            onChoose={setPickingFor}
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
            onSelect={(cellId) => {
              dispatch({ type: 'select', cellId })
              flipTo('front')
            }}
            onChoose={setPickingFor}
          />
          <AdjustControls
            slotName={slotName(selectedCell)}
            transform={state.transforms[selectedCell.id] ?? IDENTITY_TRANSFORM}
            hasPhoto={Boolean(state.photos[selectedCell.id])}
            canUndo={canUndo(state, selectedCell.id)}
            onChange={(next, mode) => adjust(selectedCell.id, next, mode)}
            onUndo={() => {
              window.clearTimeout(settleTimer.current)
              dispatch({ type: 'undo', cellId: selectedCell.id })
              flipTo('front')
            }}
            onReset={() => adjust(selectedCell.id, IDENTITY_TRANSFORM, 'commit')}
          />
          <TextLineControls
            // Remounted once the draft is restored, so the field starts from the restored line.
            key={state.restored ? 'restored' : 'initial'}
            text={state.text}
            onChange={(text) => {
              dispatch({ type: 'text', text })
              flipTo('front')
            }}
            onProblem={setTextRefused}
          />
          <BackSidePicker backSides={backSides} selectedId={state.backSideId} onSelect={chooseBackSide} />
          <DesignSharePanel variantId={variantId} saveNow={flushAccountSave} />
        </div>
      </div>

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
              {working
                ? 'Making your preview…'
                : textRefused
                  ? 'Fix your text to preview'
                  : allPlaced
                    ? 'Ready to preview'
                    : cells.length - placedCount === 1
                      ? 'Add 1 more photo'
                      : `Add ${cells.length - placedCount} photos`}
            </p>
          </div>
          <Button
            ref={previewButton}
            onClick={() => void makePreview()}
            disabled={!allPlaced || working || textRefused}
            aria-describedby="preview-button-hint"
            className="shrink-0 px-5"
          >
            {working ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
            {working ? 'Making preview…' : 'Preview my ornament'}
          </Button>
        </div>
      </div>

      <PhotoPickerDialog slotName={pickingCell ? slotName(pickingCell).toLowerCase() : null} onClose={() => setPickingFor(null)} onPick={choosePhoto} />
      <PreviewResultDialog
        key={result?.previewId ?? 'none'}
        result={result}
        shapeName={shapeName.toLowerCase()}
        backSideName={backSideName}
        onClose={() => setResult(null)}
        returnFocus={previewButton}
      />
    </main>
  )
}
