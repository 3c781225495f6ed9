/**
 * Follows a deep link into the album app, and falls back to a page of ours when nothing answers it
 * (issue 15, bug 8): in the app's web view the app takes the link and the page goes away; in a
 * phone's ordinary browser an unknown `keepsake://` scheme does nothing, so after a moment the page
 * is still here and still visible, and the fallback runs instead.
 */
export function followAppLink(href: string, fallback: () => void, { waitMs = 1200 }: { waitMs?: number } = {}) {
  let left = false
  const leave = () => {
    left = true
  }
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') leave()
  }
  document.addEventListener('visibilitychange', onVisibility)
  window.addEventListener('pagehide', leave)
  const done = () => {
    document.removeEventListener('visibilitychange', onVisibility)
    window.removeEventListener('pagehide', leave)
  }
  try {
    window.location.href = href
  } catch {
    // A scheme the browser refuses outright: nothing took the link.
  }
  window.setTimeout(() => {
    done()
    if (!left && document.visibilityState === 'visible') fallback()
  }, waitMs)
}
