/**
 * The live ornament preview: pixi.js v8 on WebGL, drawing exactly the layout of layout.ts. Loaded
 * lazily (dynamic import) by the designer and the render check page only, so pixi is in no other
 * page's bundle.
 *
 * Masks, frames, pattern tiles and back sides are drawn 1:1 from the API's scaled copies
 * (GET /v1/printify/base-images), made by the same sharp code as the print file, so the preview and
 * the print differ only in how the photo itself is sampled.
 */
// pixi compiles its shader and uniform code with `new Function` unless this is loaded; the pages' CSP allows no eval (decision 021).
import 'pixi.js/unsafe-eval'
import { Application, BufferImageSource, Container, ImageSource, MeshSimple, RendererType, Sprite, Texture, TilingSprite } from 'pixi.js'
import type { PseudoTemplate, TemplateCell } from '../catalogue/ornaments'
import { typefaceFileUrl, type OrnamentSide, type PersonalLine, type PersonalText, type TypefaceId } from '../catalogue/personal-line'
import {
  cellClipRect,
  clampTransform,
  drawOrder,
  IDENTITY_TRANSFORM,
  invertMatrix,
  outputSize,
  photoMatrix,
  scaleMatrix,
  type PhotoTransform,
  type Size,
} from './layout'
import { measureLineContrast, type LineContrast } from './line-contrast'
import { loadLineFont } from './line-fonts'
import { drawLine, linesByCell, premultiplied, type DrawnLine } from './text-line'
import type { AlphaMask } from './text-raster'

export type PreviewSide = 'front' | 'back'

export type PreviewOptions = {
  template: PseudoTemplate
  /** Canvas width in pixels: one of previewWidths (catalogue/ornaments.ts). */
  width: number
  /** URL of a base image scaled for this canvas width. */
  baseImageUrl: (path: string, width: number) => string
  /** Mip-mapped photo textures look better shrunk; off for pixel checks that only enlarge. */
  mipmaps?: boolean
  /** Aborting stops loading (the page was left); a half-built preview frees what it made. */
  signal?: AbortSignal
  /** URL of a personal-line typeface's font file (default: the store's own copy). */
  fontUrl?: (typeface: TypefaceId) => string
}

/** A Text cell: a sprite placed on exactly the cell's output pixels, showing the shared rasteriser's mask 1:1. */
type TextSlot = {
  cell: TemplateCell
  sprite: Sprite
  texture: Texture | null
  /** The line drawn there now, its ornament and its glyphs' coverage (what lineContrast measures under). */
  drawn: { side: OrnamentSide; line: PersonalLine; rect: DrawnLine['rect']; glyphs: AlphaMask } | null
}

/** A photo is one quad over its cell's pixels whose texture coordinates place the photo: no mask needed to clip it. */
type PhotoSlot = { cell: TemplateCell; quad: MeshSimple; texture: Texture | null; size: Size | null; transform: PhotoTransform }

/** The mask with its alpha inverted: drawn with the 'erase' blend it removes everything outside the silhouettes. */
async function invertedMaskBitmap(mask: ImageBitmap): Promise<ImageBitmap> {
  const canvas = new OffscreenCanvas(mask.width, mask.height)
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!
  ctx.drawImage(mask, 0, 0)
  const image = ctx.getImageData(0, 0, mask.width, mask.height)
  const px = image.data
  for (let i = 0; i < px.length; i += 4) {
    px[i] = 0
    px[i + 1] = 0
    px[i + 2] = 0
    px[i + 3] = 255 - px[i + 3]!
  }
  ctx.putImageData(image, 0, 0)
  return createImageBitmap(canvas, { premultiplyAlpha: 'premultiply' })
}

async function loadBitmap(url: string, signal?: AbortSignal): Promise<ImageBitmap> {
  const response = await fetch(url, { credentials: 'include', signal })
  if (!response.ok) throw new Error(`Could not load ${url}: ${response.status}`)
  return createImageBitmap(await response.blob(), { premultiplyAlpha: 'premultiply', colorSpaceConversion: 'none' })
}

function textureOf(bitmap: ImageBitmap, mipmaps: boolean): Texture {
  const source = new ImageSource({ resource: bitmap, scaleMode: 'linear', autoGenerateMipmaps: mipmaps, alphaMode: 'premultiplied-alpha' })
  return new Texture({ source })
}

export type OrnamentPreview = Awaited<ReturnType<typeof createOrnamentPreview>>

export async function createOrnamentPreview(options: PreviewOptions) {
  const { template, width } = options
  const scale = width / template.width
  const size = outputSize(template, scale)
  const mipmaps = options.mipmaps ?? true
  const app = new Application()
  await app.init({
    width: size.width,
    height: size.height,
    preference: 'webgl',
    antialias: false,
    resolution: 1,
    autoDensity: false,
    autoStart: false,
    backgroundAlpha: 0,
    preserveDrawingBuffer: true,
  })
  app.ticker.stop()
  const owned: Texture[] = []
  const abort = new AbortController()
  options.signal?.addEventListener('abort', () => abort.abort(), { once: true })
  let destroyed = false
  /** A preview that cannot finish starting frees its textures and WebGL context before failing. */
  const failed = (error: unknown): never => {
    abort.abort()
    for (const texture of owned) texture.destroy(true)
    app.destroy({ removeView: true }, { children: true })
    throw error
  }

  const own = (texture: Texture) => {
    owned.push(texture)
    return texture
  }
  const baseBitmap = (path: string) => loadBitmap(options.baseImageUrl(path, width), abort.signal)
  const baseTexture = async (path: string) => own(textureOf(await baseBitmap(path), false))

  const front = new Container({ label: 'front' })
  const back = new Container({ label: 'back', visible: false })
  app.stage.addChild(front, back)

  const [maskBitmap, frameTexture] = await Promise.all([baseBitmap(template.maskImageUrl), baseTexture(template.templateImageUrl)]).catch(failed)
  const eraseTexture = own(textureOf(await invertedMaskBitmap(maskBitmap).catch(failed), false))
  const maskTexture = own(textureOf(maskBitmap, false))
  const layers = drawOrder(template.cells)
  const onTop = new Container({ label: 'on-top' })
  const slots = new Map<string, PhotoSlot>()
  const textSlots: TextSlot[] = []

  // Beneath cells straight onto the canvas, then the inverted mask erases what lies outside the
  // silhouettes (the canvas is transparent), then the frame: a handful of draws, no render targets.
  for (const layer of layers) {
    if (layer.kind === 'template') {
      const erase = new Sprite(eraseTexture)
      erase.blendMode = 'erase'
      front.addChild(erase, new Sprite(frameTexture))
      continue
    }
    const { cell } = layer
    const parent = cell.positionRelativeToTemplate === 'Beneath' ? front : onTop
    const rect = cellClipRect(cell, scale)
    if (cell.type === 'PatternImage' && cell.patternData) {
      const tile = await baseTexture(cell.patternData.tileUrl).catch(failed)
      const tiling = new TilingSprite({ texture: tile, width: rect.width, height: rect.height })
      tiling.position.set(rect.left, rect.top)
      parent.addChild(tiling)
      continue
    }
    if (cell.type === 'Text') {
      const sprite = new Sprite(Texture.EMPTY)
      sprite.position.set(rect.left, rect.top)
      sprite.visible = false
      parent.addChild(sprite)
      textSlots.push({ cell, sprite, texture: null, drawn: null })
      continue
    }
    const corners = [rect.left, rect.top, rect.left + rect.width, rect.top, rect.left + rect.width, rect.top + rect.height, rect.left, rect.top + rect.height]
    const quad = new MeshSimple({
      texture: Texture.EMPTY,
      vertices: new Float32Array(corners),
      uvs: new Float32Array(8),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    })
    quad.visible = false
    parent.addChild(quad)
    slots.set(cell.id, { cell, quad, texture: null, size: null, transform: { ...IDENTITY_TRANSFORM } })
  }
  if (onTop.children.length > 0) {
    // Cells above the frame (none of our templates has one) are masked the general way.
    const maskSprite = new Sprite(maskTexture)
    front.addChild(maskSprite, onTop)
    onTop.setMask({ mask: maskSprite, channel: 'alpha' })
  }

  let textVersion = 0
  let backSprite: Sprite | null = null
  let backTexture: Texture | null = null

  let frame = 0
  const render = () => {
    if (frame) cancelAnimationFrame(frame)
    frame = 0
    if (!destroyed) app.render()
  }
  const scheduleRender = () => {
    if (frame || destroyed) return
    frame = requestAnimationFrame(() => {
      frame = 0
      render()
    })
  }

  const place = (slot: PhotoSlot) => {
    if (!slot.size) return
    // Each corner of the cell's quad samples the photo where the layout puts it.
    const inverse = invertMatrix(scaleMatrix(photoMatrix(slot.cell, slot.size, slot.transform), scale))
    const positions = slot.quad.geometry.positions
    const uvs = new Float32Array(8)
    for (let i = 0; i < 8; i += 2) {
      const x = positions[i]!
      const y = positions[i + 1]!
      uvs[i] = (inverse.a * x + inverse.c * y + inverse.tx) / slot.size.width
      uvs[i + 1] = (inverse.b * x + inverse.d * y + inverse.ty) / slot.size.height
    }
    slot.quad.geometry.uvs = uvs
  }

  const slotOf = (cellId: string) => {
    const slot = slots.get(cellId)
    if (!slot) throw new Error(`No photo cell ${cellId}`)
    return slot
  }

  const preview = {
    canvas: app.canvas as HTMLCanvasElement,
    size,
    scale,
    template,
    /** 'webgl' when running on WebGL. */
    rendererType:
      app.renderer.type === RendererType.WEBGL ? ('webgl' as const) : app.renderer.type === RendererType.WEBGPU ? ('webgpu' as const) : ('canvas' as const),
    cellIds: [...slots.keys()],

    /** Puts a photo (by URL) in a cell, keeping `transform` (clamped to the photo); null empties the cell. */
    async setPhoto(cellId: string, url: string | null, transform: PhotoTransform = IDENTITY_TRANSFORM): Promise<PhotoTransform> {
      const slot = slotOf(cellId)
      let next: { texture: Texture; size: Size } | null = null
      if (url) {
        const bitmap = await loadBitmap(url, abort.signal)
        if (destroyed) {
          bitmap.close()
          return transform
        }
        next = { texture: textureOf(bitmap, mipmaps), size: { width: bitmap.width, height: bitmap.height } }
      }
      slot.texture?.destroy(true)
      slot.texture = next?.texture ?? null
      slot.size = next?.size ?? null
      slot.quad.texture = slot.texture ?? Texture.EMPTY
      slot.quad.visible = next !== null
      if (next) {
        slot.transform = clampTransform(slot.cell, next.size, transform)
        place(slot)
      }
      scheduleRender()
      return slot.transform
    },

    /** Moves a photo; answers the transform actually applied (clamped so the cell stays covered). */
    setTransform(cellId: string, transform: PhotoTransform): PhotoTransform {
      const slot = slotOf(cellId)
      slot.transform = slot.size ? clampTransform(slot.cell, slot.size, transform) : transform
      place(slot)
      scheduleRender()
      return slot.transform
    },

    transformOf: (cellId: string) => slotOf(cellId).transform,
    photoSizeOf: (cellId: string) => slotOf(cellId).size,

    /** The photo cell under a point given in template pixels, if any. */
    cellAt(x: number, y: number): string | null {
      for (const slot of slots.values()) {
        const l = slot.cell.absoluteCenterX - slot.cell.width / 2
        const t = slot.cell.absoluteCenterY - slot.cell.height / 2
        if (x >= l && x <= l + slot.cell.width && y >= t && y <= t + slot.cell.height) return slot.cell.id
      }
      return null
    },

    /** A point on the page (client pixels) in template pixels. */
    toTemplatePoint(clientX: number, clientY: number) {
      const box = preview.canvas.getBoundingClientRect()
      return { x: ((clientX - box.left) / box.width) * template.width, y: ((clientY - box.top) / box.height) * template.height }
    },

    /** Template pixels per client pixel, for turning pointer deltas into offsets. */
    templatePerClientPixel() {
      const box = preview.canvas.getBoundingClientRect()
      return box.width > 0 ? template.width / box.width : 1
    },

    /** Draws each ornament's line in its Text cell (null clears them). A later call wins over one still loading its fonts. */
    async setText(text: PersonalText | null): Promise<void> {
      const version = ++textVersion
      const drawn = await Promise.all(
        linesByCell(template, text).map(async ({ cell, line, side }) => ({
          cell,
          line,
          side,
          font: await loadLineFont((options.fontUrl ?? typefaceFileUrl)(line.typeface)),
        })),
      )
      if (destroyed || version !== textVersion) return
      for (const slot of textSlots) {
        slot.texture?.destroy(true)
        slot.texture = null
        slot.sprite.texture = Texture.EMPTY
        slot.sprite.visible = false
        slot.drawn = null
        const mine = drawn.find((d) => d.cell.id === slot.cell.id)
        if (!mine) continue
        // The shared layout and rasteriser, halo included (text-line.ts): the bytes the print render blends.
        const { rect, rgba, glyphs } = drawLine(mine.font, mine.line, slot.cell, scale)
        if (rect.width <= 0 || rect.height <= 0) continue
        slot.drawn = { side: mine.side, line: mine.line, rect, glyphs }
        const source = new BufferImageSource({
          resource: premultiplied(rgba),
          width: rect.width,
          height: rect.height,
          format: 'rgba8unorm',
          alphaMode: 'premultiplied-alpha',
          scaleMode: 'nearest',
          autoGenerateMipmaps: false,
        })
        slot.texture = new Texture({ source })
        slot.sprite.texture = slot.texture
        slot.sprite.position.set(rect.left, rect.top)
        slot.sprite.visible = true
      }
      scheduleRender()
    },

    async setBackSide(path: string | null) {
      const texture = path ? await baseTexture(path) : null
      if (destroyed) {
        texture?.destroy(true)
        return
      }
      if (backSprite) {
        back.removeChild(backSprite)
        backSprite.destroy()
      }
      if (backTexture) {
        owned.splice(owned.indexOf(backTexture), 1)
        backTexture.destroy(true)
      }
      backTexture = texture
      backSprite = texture ? new Sprite(texture) : null
      if (backSprite) back.addChild(backSprite)
      scheduleRender()
    },

    showSide(side: PreviewSide) {
      front.visible = side === 'front'
      back.visible = side === 'back'
      scheduleRender()
    },

    renderNow: render,

    /** The canvas's pixels over an opaque background (RGBA, top row first), for checks and goldens. */
    readPixels(background: [number, number, number] = [255, 255, 255]): Uint8Array {
      render()
      const gl = (app.renderer as unknown as { gl: WebGL2RenderingContext }).gl
      const out = new Uint8Array(size.width * size.height * 4)
      gl.readPixels(0, 0, size.width, size.height, gl.RGBA, gl.UNSIGNED_BYTE, out)
      // WebGL's rows start at the bottom; the drawing buffer holds premultiplied colour.
      const row = size.width * 4
      const flat = new Uint8Array(out.length)
      for (let y = 0; y < size.height; y++) {
        const from = (size.height - 1 - y) * row
        for (let x = 0; x < row; x += 4) {
          const a = out[from + x + 3]!
          for (let c = 0; c < 3; c++) flat[y * row + x + c] = Math.min(255, out[from + x + c]! + Math.round(((255 - a) * background[c]!) / 255))
          flat[y * row + x + 3] = 255
        }
      }
      return flat
    },

    /**
     * How each drawn line reads on its photo (decision 058): the front drawn once without the lines, the pixels
     * under each line's cell read back, and measured with the same function the print render uses
     * (line-contrast.ts). Synchronous, two frames and a small read-back in all; call it after `await setText(…)`
     * and after photos settle (setPhoto resolved, a gesture's 'end'), not on every move. Sides without a line,
     * or whose line covers no photo pixel, are absent.
     */
    lineContrast(): Partial<Record<OrnamentSide, LineContrast>> {
      const result: Partial<Record<OrnamentSide, LineContrast>> = {}
      const measured = textSlots.filter((slot) => slot.drawn && slot.sprite.visible)
      if (destroyed || measured.length === 0) return result
      const wasFront = front.visible
      const wasBack = back.visible
      front.visible = true
      back.visible = false
      for (const slot of measured) slot.sprite.visible = false
      try {
        render()
        const gl = (app.renderer as unknown as { gl: WebGL2RenderingContext }).gl
        for (const slot of measured) {
          const { side, line, rect, glyphs } = slot.drawn!
          // The cell's rows, read bottom-up as WebGL stores them and turned top-down; premultiplied colour.
          const left = Math.max(0, rect.left)
          const top = Math.max(0, rect.top)
          const width = Math.min(size.width, rect.left + rect.width) - left
          const height = Math.min(size.height, rect.top + rect.height) - top
          if (width <= 0 || height <= 0) continue
          const raw = new Uint8Array(width * height * 4)
          gl.readPixels(left, size.height - top - height, width, height, gl.RGBA, gl.UNSIGNED_BYTE, raw)
          const data = new Uint8Array(raw.length)
          for (let y = 0; y < height; y++) data.set(raw.subarray((height - 1 - y) * width * 4, (height - y) * width * 4), y * width * 4)
          const under = { width, height, data, premultiplied: true }
          const contrast = measureLineContrast(under, { rect: { ...rect, left: rect.left - left, top: rect.top - top }, glyphs }, line)
          if (contrast) result[side] = contrast
        }
      } finally {
        for (const slot of measured) slot.sprite.visible = true
        front.visible = wasFront
        back.visible = wasBack
        render()
      }
      return result
    },

    /** One frame drawn and waited for, GPU included (bench:render): the slowest way to measure a frame. */
    timeFrame(): number {
      const gl = (app.renderer as unknown as { gl: WebGL2RenderingContext }).gl
      const start = performance.now()
      render()
      gl.finish()
      const px = new Uint8Array(4)
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px)
      return performance.now() - start
    },

    /** Frees every texture, sprite and the WebGL context. Safe to call twice. */
    destroy() {
      if (destroyed) return
      destroyed = true
      abort.abort()
      if (frame) cancelAnimationFrame(frame)
      for (const slot of slots.values()) slot.texture?.destroy(true)
      for (const slot of textSlots) slot.texture?.destroy(true)
      maskBitmap.close()
      for (const texture of owned) texture.destroy(true)
      app.destroy({ removeView: true }, { children: true, texture: false, textureSource: false })
    },
  }
  render()
  return preview
}

/**
 * Pointer and wheel gestures on the preview canvas: drag moves the photo under the pointer, two
 * fingers pinch-zoom and rotate it, the wheel zooms. `onChange` hears each applied transform.
 */
export function attachGestures(
  preview: OrnamentPreview,
  onChange: (cellId: string, transform: PhotoTransform, phase: 'move' | 'end') => void,
  onSelect?: (cellId: string) => void,
) {
  const canvas = preview.canvas
  const pointers = new Map<number, { x: number; y: number }>()
  let active: string | null = null
  let pinch: { distance: number; angle: number; zoom: number; rotation: number } | null = null

  const geometry = () => {
    const [a, b] = [...pointers.values()]
    if (!a || !b) return null
    return { distance: Math.hypot(b.x - a.x, b.y - a.y), angle: (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI }
  }

  const down = (e: PointerEvent) => {
    const p = preview.toTemplatePoint(e.clientX, e.clientY)
    if (pointers.size === 0) {
      active = preview.cellAt(p.x, p.y)
      if (!active || !preview.photoSizeOf(active)) {
        active = null
        return
      }
      onSelect?.(active)
    }
    if (!active) return
    canvas.setPointerCapture(e.pointerId)
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY })
    const g = geometry()
    if (g) {
      const t = preview.transformOf(active)
      pinch = { ...g, zoom: t.zoom, rotation: t.rotation }
    }
    e.preventDefault()
  }

  const move = (e: PointerEvent) => {
    const last = pointers.get(e.pointerId)
    if (!last || !active) return
    const now = { x: e.clientX, y: e.clientY }
    pointers.set(e.pointerId, now)
    const t = preview.transformOf(active)
    const g = geometry()
    if (pinch && g) {
      const k = preview.templatePerClientPixel() / pointers.size
      const next = {
        ...t,
        x: t.x + (now.x - last.x) * k,
        y: t.y + (now.y - last.y) * k,
        zoom: pinch.zoom * (g.distance / Math.max(1, pinch.distance)),
        rotation: pinch.rotation + (g.angle - pinch.angle),
      }
      onChange(active, preview.setTransform(active, next), 'move')
    } else {
      const k = preview.templatePerClientPixel()
      onChange(active, preview.setTransform(active, { ...t, x: t.x + (now.x - last.x) * k, y: t.y + (now.y - last.y) * k }), 'move')
    }
  }

  const up = (e: PointerEvent) => {
    if (!pointers.delete(e.pointerId)) return
    if (pointers.size < 2) pinch = null
    if (pointers.size === 0 && active) {
      onChange(active, preview.transformOf(active), 'end')
      active = null
    }
  }

  let wheelEnd = 0
  const wheel = (e: WheelEvent) => {
    const p = preview.toTemplatePoint(e.clientX, e.clientY)
    const cellId = preview.cellAt(p.x, p.y)
    if (!cellId || !preview.photoSizeOf(cellId)) return
    e.preventDefault()
    const t = preview.transformOf(cellId)
    onChange(cellId, preview.setTransform(cellId, { ...t, zoom: t.zoom * Math.exp(-e.deltaY * 0.0015) }), 'move')
    window.clearTimeout(wheelEnd)
    wheelEnd = window.setTimeout(() => onChange(cellId, preview.transformOf(cellId), 'end'), 250)
  }

  canvas.style.touchAction = 'none'
  canvas.addEventListener('pointerdown', down)
  canvas.addEventListener('pointermove', move)
  canvas.addEventListener('pointerup', up)
  canvas.addEventListener('pointercancel', up)
  canvas.addEventListener('wheel', wheel, { passive: false })
  return () => {
    window.clearTimeout(wheelEnd)
    canvas.removeEventListener('pointerdown', down)
    canvas.removeEventListener('pointermove', move)
    canvas.removeEventListener('pointerup', up)
    canvas.removeEventListener('pointercancel', up)
    canvas.removeEventListener('wheel', wheel)
  }
}
