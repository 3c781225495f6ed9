/**
 * First paint before JavaScript (docs/decisions/024). A page's HTML is complete without the app's
 * scripts: the heading, the text and the images paint from the HTML and the stylesheet alone, and the
 * JavaScript only hydrates what is already there. So the scripts wait until the page has painted:
 * the `<link rel="modulepreload">` tags leave the head, and the entry `<script type="module">` becomes
 * a small inline loader (with the page's CSP nonce) that, once the first contentful paint has happened,
 * adds the same preloads and the same module script. On a slow phone link the stylesheet and the font then have the
 * bandwidth to themselves, and the ~165 KB entry chunk downloads while the shopper reads.
 *
 * The page hydrates the same way as before (the module script the loader adds is the one TanStack's
 * <Scripts> looks for, so it adds no second one). A hidden tab (no frames) loads at once.
 */

import { drainOnCancel } from './lib/drain-on-cancel'

const MODULEPRELOAD = /<link rel="modulepreload" href="([^"<>]+)"[^<>]*?\/?>/g
const ENTRY = /<script type="module" async="" src="([^"<>]+)"(?: nonce="([^"<>]*)")?[^<>]*><\/script>/
const ENTRY_START = '<script type="module"'

const js = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

/** However long the first contentful paint takes, the app loads after this long (a page with nothing to paint). */
export const FIRST_PAINT_WAIT_MS = 10_000

/**
 * The inline script that loads the app after the page's first contentful paint (a `paint` performance
 * entry); where the browser reports no paint entries, two animation frames later.
 */
export function deferredEntryLoader(entry: string, preloads: string[], nonce: string | undefined): string {
  const code =
    `(function(){var p=${js(preloads)},e=${js(entry)},done=false;` +
    `function go(){if(done)return;done=true;p.forEach(function(h){var l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.appendChild(l)});` +
    `var s=document.createElement('script');s.type='module';s.async=true;s.src=e;document.head.appendChild(s)}` +
    `if(document.visibilityState==='hidden')return go();` +
    `var P=window.PerformanceObserver;` +
    `if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){` +
    `new P(function(list,o){if(list.getEntriesByName('first-contentful-paint').length){o.disconnect();setTimeout(go,0)}}).observe({type:'paint',buffered:true});` +
    `setTimeout(go,${FIRST_PAINT_WAIT_MS})}` +
    `else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go,0)})})})()`
  return `<script${nonce ? ` nonce="${nonce}"` : ''}>${code}</script>`
}

/**
 * Rewrites one page's HTML stream. Tags may arrive split across chunks, so the text from the last `<`
 * (or from an entry script not yet closed) waits for the next chunk; once the entry is rewritten the
 * rest of the stream passes through untouched.
 */
export function deferScriptsUntilPainted(): TransformStream<string, string> {
  const preloads: string[] = []
  let pending = ''
  let done = false
  const rewrite = (text: string) =>
    text
      .replace(MODULEPRELOAD, (_tag, href: string) => {
        preloads.push(href)
        return ''
      })
      .replace(ENTRY, (_tag, src: string, nonce: string | undefined) => {
        done = true
        return deferredEntryLoader(src, preloads, nonce)
      })
  return new TransformStream({
    transform(chunk, controller) {
      const text = pending + chunk
      pending = ''
      if (done) return controller.enqueue(text)
      let cut = text.length
      const lastOpen = text.lastIndexOf('<')
      if (lastOpen >= 0 && text.indexOf('>', lastOpen) < 0) cut = lastOpen
      const openEntry = text.lastIndexOf(ENTRY_START)
      if (openEntry >= 0 && text.indexOf('</script>', openEntry) < 0) cut = Math.min(cut, openEntry)
      pending = text.slice(cut)
      const ready = text.slice(0, cut)
      if (ready) controller.enqueue(rewrite(ready))
    },
    flush(controller) {
      if (pending) controller.enqueue(rewrite(pending))
    },
  })
}

/**
 * A page's response with its scripts deferred; anything that is not HTML, or not the answer to a GET, is
 * returned as it is. (A HEAD's page has a body no one reads: piping it crashed the process once the server
 * closed it.)
 */
export function withScriptsAfterFirstPaint(request: Request, response: Response): Response {
  // `body` is asked for last: a response's web stream may be made lazily, and one made and left unread breaks the server.
  if (request.method !== 'GET' || !response.headers.get('content-type')?.startsWith('text/html') || !response.body) return response
  const body = drainOnCancel(response.body).pipeThrough(new TextDecoderStream()).pipeThrough(deferScriptsUntilPainted()).pipeThrough(new TextEncoderStream())
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}
