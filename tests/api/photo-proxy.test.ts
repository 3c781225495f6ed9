import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoAccounts } from '../../app/api/demo/accounts'
import { ImageCache, proxyPhoto, type PhotoProxy } from '../../app/api/services/photo-proxy'
import { AppError } from '../../app/api/errors'
import { mediaUrls } from '../../app/api/media/urls'
import { hostileProxyUrls } from '../fixtures/hostile-urls'
import { addAlbumPhotos, makeImage } from '../support/photos'
import { createTestApi, type TestApi } from '../support/test-api'

let t: TestApi
let maya: string
let photoId: string

beforeAll(async () => {
  t = await createTestApi({ PHOTO_PROXY_HOSTS: 'media.keepsake.test,cdn.keepsake.test' })
  const [photo] = await addAlbumPhotos(t, demoAccounts[0].family.id, 1)
  photoId = photo!.id
  maya = await t.signIn(0)
})
afterAll(() => t.close())

const proxyPath = (url: string, extra = '') => `/v1/keepsake-photos/proxy?url=${encodeURIComponent(url)}${extra}`

describe('GET /v1/{product}-photos/proxy with our own media', () => {
  it('reads the output size straight from storage, defaulting to smartphone, cacheable with an ETag', async () => {
    const url = `http://localhost:3000/v1/media/photos/${photoId}/small.jpg`
    const res = await t.api.fetch(new Request(`http://localhost:3000${proxyPath(url)}`, { headers: { cookie: maya } }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/jpeg')
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400')
    const body = Buffer.from(await res.arrayBuffer())
    const direct = await t.api.fetch(new Request(`http://localhost:3000/v1/media/photos/${photoId}/smartphone.jpg`))
    expect(body.equals(Buffer.from(await direct.arrayBuffer()))).toBe(true)
    const again = await t.api.fetch(
      new Request(`http://localhost:3000${proxyPath(url)}`, { headers: { cookie: maya, 'if-none-match': res.headers.get('etag')! } }),
    )
    expect(again.status).toBe(304)
  })

  it('reads our root-relative media URLs (what the album now answers) from storage; protocol-relative ones are refused', async () => {
    const relative = await t.api.fetch(new Request(`http://127.0.0.1:3000${proxyPath(`/v1/media/photos/${photoId}/small.jpg`)}`, { headers: { cookie: maya } }))
    expect(relative.status).toBe(200)
    const direct = await t.api.fetch(new Request(`http://localhost:3000/v1/media/photos/${photoId}/smartphone.jpg`))
    expect(Buffer.from(await relative.arrayBuffer()).equals(Buffer.from(await direct.arrayBuffer()))).toBe(true)
    for (const sneaky of ['//evil.example/x.jpg', '/\\evil.example/x.jpg']) {
      const res = await t.request(proxyPath(sneaky), { cookie: maya })
      expect(res.status).toBe(400)
    }
  })

  it('answers the small size when asked', async () => {
    const url = `http://localhost:3000/v1/media/photos/${photoId}/smartphone.jpg`
    const res = await t.api.fetch(
      new Request(`http://localhost:3000${proxyPath(url, '&inputSize=smartphone&outputSize=small')}`, { headers: { cookie: maya } }),
    )
    const direct = await t.api.fetch(new Request(`http://localhost:3000/v1/media/photos/${photoId}/small.jpg`))
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(await direct.arrayBuffer()))).toBe(true)
  })

  it('answers 404 for an unknown photo of ours', async () => {
    const res = await t.request(proxyPath('http://localhost:3000/v1/media/photos/00000000-0000-4000-8000-000000000000/small.jpg'), { cookie: maya })
    expect(res.status).toBe(404)
  })

  it('refuses other paths of our own origin with 403', async () => {
    for (const path of [
      '/v1/growth/transition-token',
      '/v1/media/uploads',
      `/v1/media/photos/${photoId}/original.jpg`,
      '/v1/media/photos/aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaa-/small.jpg',
      '/v1/media/photos/------------------------------------/small.jpg',
    ]) {
      const res = await t.request(proxyPath(`http://localhost:3000${path}`), { cookie: maya })
      expect(res.status, path).toBe(403)
    }
  })

  it.each([
    ['outputSize=huge', 'query.outputSize'],
    ['inputSize=tiny', 'query.inputSize'],
  ])('refuses %s with 400', async (extra, path) => {
    const res = await t.request(proxyPath(`http://localhost:3000/v1/media/photos/${photoId}/small.jpg`, `&${extra}`), { cookie: maya })
    expect(res.status).toBe(400)
    expect(res.body.error.issues[0].path).toBe(path)
  })

  it('refuses a missing url with 400 Required', async () => {
    const res = await t.request('/v1/keepsake-photos/proxy', { cookie: maya })
    expect(res.status).toBe(400)
    expect(res.body.error.issues).toContainEqual({ path: 'query.url', message: 'Required' })
  })
})

describe('the proxy refuses hostile URLs', () => {
  it('has at least 20 of them to try', () => {
    expect(hostileProxyUrls.length).toBeGreaterThanOrEqual(20)
  })

  it.each(hostileProxyUrls)('refuses $url ($why) with a 4xx', async ({ url }) => {
    const res = await t.request(proxyPath(url), { cookie: maya })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(res.body.error.message).toMatch(/\w+/)
  })
})

describe('the proxy service against a remote CDN', () => {
  let server: http.Server
  let port = 0
  let jpeg: Buffer
  let bomb: Buffer
  let fetches = 0

  beforeAll(async () => {
    jpeg = await makeImage('jpeg', 2000, 1500)
    bomb = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    server = http.createServer((req, res) => {
      fetches++
      if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg)
      if (req.url === '/bomb.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(bomb)
      if (req.url === '/lies.png') return res.writeHead(200, { 'content-type': 'image/png' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>')
      if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>')
      if (req.url === '/to-private') return res.writeHead(302, { location: `http://internal.keepsake.test:${port}/photo.jpg` }).end()
      if (req.url === '/to-elsewhere') return res.writeHead(302, { location: `http://evil.example:${port}/photo.jpg` }).end()
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  /** cdn.keepsake.test is this loopback server; internal.keepsake.test resolves to a private address. */
  const proxyFor = (): PhotoProxy => ({
    storage: t.storage,
    media: mediaUrls({ publicUrl: 'http://localhost:3000', storage: { kind: 'local' } }),
    remoteHosts: [`cdn.keepsake.test:${port}`, `internal.keepsake.test:${port}`],
    cache: new ImageCache(8 * 1024 * 1024),
    fetchOptions: {
      lookup: async (host) => [{ address: host === 'internal.keepsake.test' ? '10.0.0.5' : '127.0.0.1', family: 4 }],
      isAllowedAddress: (ip) => ip === '127.0.0.1',
    },
  })
  const refusedWith = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(AppError)
    return (error as AppError).code
  }

  it('fetches, resizes to the output size, and answers the second call from its cache', async () => {
    const proxy = proxyFor()
    fetches = 0
    const first = await proxyPhoto(proxy, `http://cdn.keepsake.test:${port}/photo.jpg`, 'small')
    const meta = await sharp(first.body!).metadata()
    expect([meta.width, meta.height]).toEqual([512, 384])
    const second = await proxyPhoto(proxy, `http://cdn.keepsake.test:${port}/photo.jpg`, 'small')
    expect(second.etag).toBe(first.etag)
    const revalidated = await proxyPhoto(proxy, `http://cdn.keepsake.test:${port}/photo.jpg`, 'small', first.etag)
    expect(revalidated.body).toBeNull()
    expect(fetches).toBe(1)
  })

  it('refuses a redirect to a private address', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/to-private`, 'small'))).toBe('forbidden')
  })

  it('refuses a redirect to a host off the list', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/to-elsewhere`, 'small'))).toBe('forbidden')
  })

  it('refuses a page that is not an image', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/page`, 'small'))).toBe('unsupported_media_type')
  })

  it('refuses SVG sent as image/png', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/lies.png`, 'small'))).toBe('unsupported_media_type')
  })

  it('refuses a huge image by its pixel count', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/bomb.png`, 'small'))).toBe('payload_too_large')
  })

  it('reports a missing remote image as a provider failure', async () => {
    expect(await refusedWith(proxyPhoto(proxyFor(), `http://cdn.keepsake.test:${port}/gone.jpg`, 'small'))).toBe('provider_failed')
  })
})
