/**
 * Compresses the pages and JSON the server renders (the built static files are compressed by srvx's
 * static middleware already). A page streams: each chunk the renderer writes is flushed through the
 * compressor at once, so a streamed page still arrives in pieces. Brotli when the browser takes it,
 * else gzip. See docs/decisions/024.
 */
import { Duplex } from 'node:stream'
import zlib from 'node:zlib'
import { drainOnCancel } from '../app/lib/drain-on-cancel.ts'

const COMPRESSIBLE = /^(text\/html|application\/json|text\/plain|application\/problem\+json)\b/

function encodingFor(acceptEncoding: string | null): 'br' | 'gzip' | null {
  const accepted = new Map(
    (acceptEncoding ?? '').split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return [name!, q ? Number(q.slice(2)) : 1] as const
    }),
  )
  if ((accepted.get('br') ?? 0) > 0) return 'br'
  if ((accepted.get('gzip') ?? 0) > 0) return 'gzip'
  return null
}

/** The response compressed for this request, or the response itself when it should stay as it is. */
export function compressResponse(request: Request, response: Response): Response {
  const type = response.headers.get('content-type') ?? ''
  // `body` is read last: srvx's responses make their web stream only when it is asked for, and a static file's
  // stream made and then left unread crashed the process when srvx sent the file its own way.
  if (request.method === 'HEAD' || response.headers.has('content-encoding') || !COMPRESSIBLE.test(type) || !response.body) return response
  if (response.status === 204 || response.status === 304) return response
  const encoding = encodingFor(request.headers.get('accept-encoding'))
  const headers = new Headers(response.headers)
  headers.append('vary', 'accept-encoding')
  if (!encoding) return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
  const compressor =
    encoding === 'br'
      ? zlib.createBrotliCompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
        })
      : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 })
  headers.set('content-encoding', encoding)
  headers.delete('content-length')
  const body = drainOnCancel(response.body).pipeThrough(Duplex.toWeb(compressor) as unknown as TransformStream<Uint8Array, Uint8Array>)
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}
