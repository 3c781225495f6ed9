import { describe, expect, it } from 'vitest'
import { EMPTY_FILE_READER_MESSAGE, photoSourceUrl, photoToDataUrl, readBlobAsDataUrl, urlAtSize, withBase64 } from '~/lib/photo-conversion'
import { putSignedUpload, uploadPhoto, uploadTypeOf } from '~/lib/photo-upload'

/** A FileReader stand-in (Node has none): answers the given result, or an error. */
function readerAnswering(result: string | null, fail = false) {
  return class {
    result: string | null = null
    error: unknown = null
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    readAsDataURL() {
      queueMicrotask(() => {
        if (fail) {
          this.error = new Error('read failed')
          this.onerror?.()
        } else {
          this.result = result
          this.onload?.()
        }
      })
    }
  }
}

const options = { size: 'smartphone' as const, apiBaseUrl: '', productSlug: 'keepsake', photoProxy: true }

describe('photo conversion (SPEC.md §4)', () => {
  it('switches size by replacing the size word', () => {
    expect(urlAtSize('https://s.example/v1/media/photos/abc/small.jpg', 'smartphone')).toBe('https://s.example/v1/media/photos/abc/smartphone.jpg')
    expect(urlAtSize('https://cdn.example/photos/abc/smartphone.jpg?v=2', 'small')).toBe('https://cdn.example/photos/abc/small.jpg?v=2')
    expect(urlAtSize('https://cdn.example/smallish/abc.jpg', 'small')).toBeNull()
    expect(urlAtSize('https://cdn.example/photos/abc.jpg', 'small')).toBeNull()
  })

  it('goes through the proxy when the URL has no size word, with the spec defaults', () => {
    expect(photoSourceUrl('https://cdn.example/a.jpg', options)).toBe(
      '/v1/keepsake-photos/proxy?url=https%3A%2F%2Fcdn.example%2Fa.jpg&inputSize=small&outputSize=smartphone',
    )
    expect(photoSourceUrl('https://cdn.example/a.jpg', { ...options, apiBaseUrl: 'https://api.example' })).toMatch(
      /^https:\/\/api\.example\/v1\/keepsake-photos\/proxy\?/,
    )
  })

  it('never uses the proxy for the celebrate client', () => {
    expect(photoSourceUrl('https://cdn.example/a.jpg', { ...options, photoProxy: false })).toBe('https://cdn.example/a.jpg')
  })

  it('reads a blob into a data URL', async () => {
    await expect(readBlobAsDataUrl(new Blob(['x']), readerAnswering('data:image/jpeg;base64,eA=='))).resolves.toBe('data:image/jpeg;base64,eA==')
  })

  it("fails with 'FileReader result is empty' when the reader has no result", async () => {
    await expect(readBlobAsDataUrl(new Blob(['x']), readerAnswering(null))).rejects.toThrow(EMPTY_FILE_READER_MESSAGE)
    await expect(readBlobAsDataUrl(new Blob(['x']), readerAnswering(''))).rejects.toThrow('FileReader result is empty')
  })

  it('fetches the converted URL, with credentials only through the proxy, and reports a failed fetch by status', async () => {
    const asked: [string, RequestInit | undefined][] = []
    const fetchStub = (async (input: string, init?: RequestInit) => {
      asked.push([input, init])
      return input.includes('missing') ? new Response('', { status: 404 }) : new Response(new Blob(['jpeg']))
    }) as typeof fetch
    const Reader = readerAnswering('data:image/jpeg;base64,anBlZw==')
    await expect(photoToDataUrl('https://s.example/photos/a/small.jpg', { ...options, fetch: fetchStub, Reader })).resolves.toMatch(/^data:/)
    expect(asked[0]).toEqual(['https://s.example/photos/a/smartphone.jpg', { credentials: 'same-origin' }])
    await photoToDataUrl('https://cdn.example/a.jpg', { ...options, fetch: fetchStub, Reader })
    expect(asked[1]![1]).toEqual({ credentials: 'include' })
    await expect(photoToDataUrl('https://s.example/photos/missing/small.jpg', { ...options, fetch: fetchStub, Reader })).rejects.toThrow('(404)')
  })

  it('keeps the url of a photo and adds a base64 copy', async () => {
    const fetchStub = (async () => new Response(new Blob(['jpeg']))) as unknown as typeof fetch
    const photo = { id: 'p', url: 'https://s.example/photos/a/smartphone.jpg', source: 'upload' as const, width: 1, height: 1 }
    const converted = await withBase64(photo, { ...options, fetch: fetchStub, Reader: readerAnswering('data:image/jpeg;base64,AA==') })
    expect(converted).toEqual({ ...photo, base64: 'data:image/jpeg;base64,AA==' })
  })
})

/** An XMLHttpRequest stand-in driven by a script of what the server does. */
function xhrDoing(behaviour: 'ok' | 'fail' | 'timeout' | 'refuse', log: { sent: number; headers: Record<string, string>[]; timeouts: number[] }) {
  return class {
    status = 0
    responseText = ''
    timeout = 0
    upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    ontimeout: (() => void) | null = null
    private headers: Record<string, string> = {}
    open() {}
    abort() {}
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value
    }
    send() {
      log.sent++
      log.headers.push(this.headers)
      log.timeouts.push(this.timeout)
      queueMicrotask(() => {
        this.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true })
        if (behaviour === 'ok') {
          this.status = 200
          this.onload?.()
        } else if (behaviour === 'refuse') {
          this.status = 415
          this.responseText = JSON.stringify({ error: { code: 'unsupported_media_type', message: 'The file is not a JPEG image' } })
          this.onload?.()
        } else if (behaviour === 'timeout') this.ontimeout?.()
        else this.onerror?.()
      })
    }
  } as unknown as new () => XMLHttpRequest & { upload: { onprogress: null }; onload: null; onerror: null; ontimeout: null }
}

describe('photo upload (SPEC.md §8, §9)', () => {
  const waits: number[] = []
  const sleep = async (ms: number) => {
    waits.push(ms)
  }
  const link = { signedRequest: 'http://s.example/v1/media/uploads/1?sig', url: 'http://s.example/v1/media/photos/1/smartphone.jpg' }

  it('knows HEIC by its extension when the browser gives no type', () => {
    expect(uploadTypeOf({ name: 'IMG_0001.HEIC', type: '' })).toBe('image/heic')
    expect(uploadTypeOf({ name: 'a.jpg', type: 'image/jpeg' })).toBe('image/jpeg')
    expect(uploadTypeOf({ name: 'a.gif', type: 'image/gif' })).toBeNull()
    expect(uploadTypeOf({ name: 'a.heic', type: 'text/plain' })).toBeNull()
  })

  it('PUTs with the content type, a 60 000 ms timeout and progress', async () => {
    const log = { sent: 0, headers: [] as Record<string, string>[], timeouts: [] as number[] }
    const progress: number[] = []
    await putSignedUpload(link.signedRequest, new Blob(['x']), 'image/jpeg', { Xhr: xhrDoing('ok', log) as never, onProgress: (f) => progress.push(f) })
    expect(log.headers[0]).toEqual({ 'content-type': 'image/jpeg' })
    // SPEC.md §9: the browser's XHR itself gives up after 60 000 ms.
    expect(log.timeouts[0]).toBe(60_000)
    expect(progress).toEqual([0.5, 1])
  })

  it('makes 3 upload attempts, 2 s then 4 s apart, then fails with the spec message', async () => {
    waits.length = 0
    const log = { sent: 0, headers: [], timeouts: [] }
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' })
    await expect(uploadPhoto(file, { createLink: async () => link, sleep, Xhr: xhrDoing('timeout', log) as never })).rejects.toThrow(
      'Upload failed after 3 attempts: no answer within 60 s',
    )
    expect(log.sent).toBe(3)
    expect(waits).toEqual([2000, 4000])
  })

  it('reports the server refusal as the cause, asking once: a refusal is never retried', async () => {
    waits.length = 0
    const log = { sent: 0, headers: [], timeouts: [] }
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' })
    await expect(uploadPhoto(file, { createLink: async () => link, sleep, Xhr: xhrDoing('refuse', log) as never })).rejects.toThrow(
      'Upload was refused: The file is not a JPEG image',
    )
    expect(log.sent).toBe(1)
    expect(waits).toEqual([])
  })

  it('asks for the link once (the server function retries it) and tells its failure as it came, with no PUT', async () => {
    waits.length = 0
    const log = { sent: 0, headers: [], timeouts: [] }
    let asked = 0
    const file = new File(['x'], 'a.jpg', { type: 'image/jpeg' })
    const refused = Object.assign(new Error('Upload link creation was refused: Uploads are paused'), { failure: { status: 422 } })
    const createLink = async () => {
      asked++
      throw refused
    }
    await expect(uploadPhoto(file, { createLink, sleep, Xhr: xhrDoing('ok', log) as never })).rejects.toBe(refused)
    expect([asked, log.sent, waits]).toEqual([1, 0, []])
  })

  it('a PUT that fails twice succeeds on the third attempt, 2 s then 4 s later, and answers the link', async () => {
    waits.length = 0
    const file = new File(['x'], 'photo one.heic', { type: '' })
    const requests: unknown[] = []
    const logs = { sent: 0, headers: [] as Record<string, string>[], timeouts: [] as number[] }
    const behaviours = ['fail', 'timeout', 'ok'] as const
    let n = 0
    const Xhr = function () {
      return new (xhrDoing(behaviours[n++]!, logs))()
    } as unknown as new () => XMLHttpRequest
    const result = await uploadPhoto(file, {
      createLink: async (request) => {
        requests.push(request)
        return link
      },
      sleep,
      Xhr: Xhr as never,
    })
    expect(result).toEqual(link)
    expect(requests).toEqual([{ fileName: 'photo one.heic', fileType: 'image/heic' }])
    expect(logs.sent).toBe(3)
    expect(logs.headers.map((h) => h['content-type'])).toEqual(['image/heic', 'image/heic', 'image/heic'])
    expect(waits).toEqual([2000, 4000])
  })
})

describe('our own media URLs', async () => {
  const { mediaUrls } = await import('~/api/media/urls')
  const id = '3f1c8a0e-3b6d-4c59-9d8e-1a2b3c4d5e6f'

  it('recognises only strict photo URLs of our origin', () => {
    const media = mediaUrls({ publicUrl: 'http://localhost:3000', storage: { kind: 'local' } })
    expect(media.parseOwn(new URL(`http://localhost:3000/v1/media/photos/${id}/small.jpg`))).toEqual({ photoId: id, size: 'small' })
    for (const bad of [
      'http://localhost:3000/v1/media/photos/aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa-/small.jpg',
      'http://localhost:3000/v1/media/photos/------------------------------------/small.jpg',
      `http://localhost:3000/v1/media/photos/${id.replaceAll('-', '')}0000/small.jpg`,
      `http://localhost:3000/v1/media/photos/${id}/original.jpg`,
      `http://localhost:3000/v1/media/photos/${id}/small.jpg/..`,
      `http://localhost:3001/v1/media/photos/${id}/small.jpg`,
    ]) {
      expect(media.parseOwn(new URL(bad)), bad).toBeNull()
    }
  })

  it('recognises bucket URLs whatever the case of the host or an explicit default port', () => {
    const media = mediaUrls({ publicUrl: 'http://localhost:3000', storage: { kind: 's3', publicUrl: 'https://CDN.Example.com:443/keepsake/' } })
    expect(media.photoUrl(id, 'small')).toBe(`https://cdn.example.com/keepsake/photos/${id}/small.jpg`)
    expect(media.parseOwn(new URL(`https://cdn.example.com/keepsake/photos/${id}/smartphone.jpg`))).toEqual({ photoId: id, size: 'smartphone' })
    expect(media.parseOwn(new URL(`https://cdn.example.com/other/photos/${id}/smartphone.jpg`))).toBeNull()
  })
})
