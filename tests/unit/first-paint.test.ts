import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { deferredEntryLoader, withScriptsAfterFirstPaint } from '../../app/first-paint.server'
import { compressResponse } from '../../scripts/http-compression'

const NONCE = 'n0nce+/='
const head =
  `<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app-1.css" nonce="${NONCE}" data-precedence="default"/>` +
  `<link rel="modulepreload" href="/assets/index-A.js" fetchPriority="low" nonce="${NONCE}"/>` +
  `<link rel="modulepreload" href="/assets/loop-B.js" fetchPriority="low" nonce="${NONCE}"/>` +
  `<link rel="preload" href="/assets/inter.woff2" as="font" type="font/woff2" crossorigin="anonymous" nonce="${NONCE}"/></head>`
const body = `<body><h1>Keepsake</h1><script type="module" async="" src="/assets/index-A.js" nonce="${NONCE}"></script><p>after</p></body></html>`
const page = head + body

/** A response whose body arrives in the given pieces, as a streamed render does. */
function streamed(pieces: string[], type = 'text/html; charset=utf-8') {
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece))
      controller.close()
    },
  })
  return new Response(stream, { status: 200, headers: { 'content-type': type, 'content-length': '999' } })
}

const get = new Request('http://store.test/loop')
const expected = page
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<script type="module"[^>]*><\/script>/, deferredEntryLoader('/assets/index-A.js', ['/assets/index-A.js', '/assets/loop-B.js'], NONCE))

describe('scripts after the first paint', () => {
  it('takes the module preloads out of the head and loads the entry from a nonce-stamped loader', async () => {
    const response = withScriptsAfterFirstPaint(get, streamed([page]))
    const html = await response.text()
    expect(html).toBe(expected)
    expect(html).not.toContain('rel="modulepreload"')
    expect(html).toContain(`<script nonce="${NONCE}">(function(){var p=["/assets/index-A.js","/assets/loop-B.js"],e="/assets/index-A.js"`)
    // The stylesheet, the font preload and the page's own text stay where they were.
    expect(html).toContain('<link rel="stylesheet" href="/assets/app-1.css"')
    expect(html).toContain('<link rel="preload" href="/assets/inter.woff2"')
    expect(response.headers.get('content-length')).toBeNull()
    expect(response.status).toBe(200)
  })

  it('gives the same page whichever byte the stream is split at', async () => {
    for (let at = 1; at < page.length; at++) {
      const html = await withScriptsAfterFirstPaint(get, streamed([page.slice(0, at), page.slice(at)])).text()
      if (html !== expected) throw new Error(`split at ${at} (${JSON.stringify(page.slice(at - 10, at + 10))}) gave ${html}`)
    }
    // And one byte at a time.
    expect(await withScriptsAfterFirstPaint(get, streamed([...page])).text()).toBe(expected)
  })

  it('leaves what is not a page alone', async () => {
    const json = streamed(['{"a":"<link rel=\\"modulepreload\\" href=\\"/x.js\\"/>"}'], 'application/json')
    expect(withScriptsAfterFirstPaint(get, json)).toBe(json)
    const empty = new Response(null, { status: 304 })
    expect(withScriptsAfterFirstPaint(get, empty)).toBe(empty)
  })

  it('leaves the answer to a HEAD or a POST alone (nobody reads its body)', () => {
    for (const method of ['HEAD', 'POST']) {
      const response = streamed([page])
      expect(withScriptsAfterFirstPaint(new Request('http://store.test/loop', { method }), response)).toBe(response)
    }
  })

  it('passes a page without an entry script through unchanged apart from its preloads', async () => {
    const html = await withScriptsAfterFirstPaint(get, streamed([head, '<body><p>no scripts</p></body></html>'])).text()
    expect(html).toBe(head.replace(/<link rel="modulepreload"[^>]*>/g, '') + '<body><p>no scripts</p></body></html>')
  })

  it('writes a loader that cannot be closed early by a hostile asset path', () => {
    const loader = deferredEntryLoader('/assets/</script><script>alert(1)</script>.js', [], undefined)
    expect(loader.match(/<\/script>/g)).toHaveLength(1)
    expect(loader.startsWith('<script>')).toBe(true)
  })
})

describe('compressed pages and JSON', () => {
  const request = (acceptEncoding: string | null, method = 'GET') =>
    new Request('http://store.test/loop', { method, headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } })

  it('answers brotli when the browser takes it, gzip when it takes only gzip, and the same bytes either way', async () => {
    const br = compressResponse(request('gzip, deflate, br'), streamed([page]))
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(br.headers.get('content-length')).toBeNull()
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(page)

    const gzip = compressResponse(request('gzip;q=1, br;q=0'), streamed([page]))
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect((await promisify(zlib.gunzip)(Buffer.from(await gzip.arrayBuffer()))).toString()).toBe(page)
  })

  it('sends each streamed piece on at once instead of waiting for the end of the page', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const encoder = new TextEncoder()
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('<html><body><h1>First part</h1>'))
        await held
        controller.enqueue(encoder.encode('<p>later</p></body></html>'))
        controller.close()
      },
    })
    const response = compressResponse(request('br'), new Response(stream, { headers: { 'content-type': 'text/html' } }))
    const reader = response.body!.getReader()
    const first = await reader.read()
    const decoder = zlib.createBrotliDecompress()
    const text = await new Promise<string>((resolve) => {
      decoder.once('data', (chunk: Buffer) => resolve(chunk.toString()))
      decoder.write(first.value)
    })
    expect(text).toBe('<html><body><h1>First part</h1>')
    release()
    while (!(await reader.read()).done);
  })

  it('leaves alone what is already compressed, not text, a HEAD, or asked for without compression', async () => {
    const image = new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } })
    expect(compressResponse(request('br'), image)).toBe(image)
    const already = new Response('x', { headers: { 'content-type': 'text/html', 'content-encoding': 'br' } })
    expect(compressResponse(request('br'), already)).toBe(already)
    const head = new Response(null, { headers: { 'content-type': 'text/html' } })
    expect(compressResponse(request('br', 'HEAD'), head)).toBe(head)
    const plain = compressResponse(request(null), streamed([page]))
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i)
    expect(await plain.text()).toBe(page)
    const refused = compressResponse(request('br;q=0, gzip;q=0'), streamed([page]))
    expect(refused.headers.get('content-encoding')).toBeNull()
  })

  it('keeps the status of an error page', async () => {
    const missing = compressResponse(request('br'), new Response('<h1>Not found</h1>', { status: 404, headers: { 'content-type': 'text/html' } }))
    expect(missing.status).toBe(404)
    expect(zlib.brotliDecompressSync(Buffer.from(await missing.arrayBuffer())).toString()).toBe('<h1>Not found</h1>')
  })
})
