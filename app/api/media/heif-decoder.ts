import { Worker } from 'node:worker_threads'

export type DecodedHeif = { width: number; height: number; data: Buffer }
type Reply = { id: number; width?: number; height?: number; data?: ArrayBuffer; error?: string; tooLarge?: boolean }

/**
 * libheif (WASM) decodes synchronously; on the main thread a 12 MP iPhone photo would stall every other
 * request for seconds. So HEIC is decoded in one worker thread, one photo at a time. The worker is
 * CommonJS evaluated from the project root, so it needs no separate bundle entry.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const decode = require('heic-decode')
parentPort.on('message', async ({ id, bytes, maxPixels }) => {
  let images
  try {
    images = await decode.all({ buffer: new Uint8Array(bytes) })
    const primary = images[0]
    if (!primary) throw new Error('no image in the file')
    if (primary.width * primary.height > maxPixels) return parentPort.postMessage({ id, tooLarge: true })
    const image = await primary.decode()
    const data = image.data.buffer.slice(image.data.byteOffset, image.data.byteOffset + image.data.byteLength)
    parentPort.postMessage({ id, width: image.width, height: image.height, data }, [data])
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  } finally {
    images?.dispose()
  }
})
`

let worker: Worker | null = null
let nextId = 1
const waiting = new Map<number, { resolve: (image: DecodedHeif | 'too-large') => void; reject: (error: Error) => void }>()

function decoder(): Worker {
  if (worker) return worker
  const started = new Worker(WORKER_SOURCE, { eval: true })
  started.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id)
    if (!pending) return
    waiting.delete(reply.id)
    if (waiting.size === 0) started.unref()
    if (reply.tooLarge) pending.resolve('too-large')
    else if (reply.error !== undefined || !reply.data) pending.reject(new Error(reply.error ?? 'no pixels'))
    else pending.resolve({ width: reply.width!, height: reply.height!, data: Buffer.from(reply.data) })
  })
  started.on('error', (error) => {
    for (const pending of waiting.values()) pending.reject(error)
    waiting.clear()
    worker = null
  })
  started.on('exit', () => {
    worker = null
  })
  worker = started
  return started
}

/** RGBA pixels of a HEIC/HEIF file's primary image, or 'too-large' when its header declares more than maxPixels. */
export function decodeHeif(bytes: Buffer, maxPixels: number): Promise<DecodedHeif | 'too-large'> {
  return new Promise((resolve, reject) => {
    const id = nextId++
    waiting.set(id, { resolve, reject })
    // A copy, so the caller's buffer stays usable after the transfer.
    const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    const running = decoder()
    // Held open while a photo is being decoded; an idle decoder never keeps the process alive.
    running.ref()
    running.postMessage({ id, bytes: copy, maxPixels }, [copy])
  })
}
