/** A JPEG answer with its ETag: 304 with no body when the client already holds it (body null). */
export function jpegResponse(body: Buffer | null, etag: string, cacheControl: string, extra: Record<string, string> = {}) {
  const headers = { 'content-type': 'image/jpeg', 'cache-control': cacheControl, etag, ...extra }
  if (!body) return new Response(null, { status: 304, headers })
  return new Response(new Uint8Array(body), { status: 200, headers: { ...headers, 'content-length': String(body.length) } })
}
