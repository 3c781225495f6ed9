import { type Page } from '@playwright/test'
import { servers } from '../../playwright.config'
import { designStarAndAddToCart, waitForHydration } from './support'
import { expect, test } from './fixtures'

/**
 * The store runs with PUBLIC_URL=http://localhost:<port>, and a shopper opens it under
 * another host name (127.0.0.1 here, a load balancer's name in production). Every photo, preview and
 * upload is our own media and must load from the host the page is on; nothing may be blocked.
 */
const otherHost = `http://127.0.0.1:${servers.main.port}`
test.use({ baseURL: otherHost })

function watchForBreakage(page: Page) {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('requestfailed', (request) => {
    // A navigation cancels the previous page's pending loads (ERR_ABORTED): that is not a blocked request.
    const reason = request.failure()?.errorText ?? ''
    if (reason !== 'net::ERR_ABORTED') problems.push(`failed: ${request.url()} ${reason}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
  })
  page.on('request', (request) => {
    // Nothing of ours is fetched from PUBLIC_URL's host while the page is on another one.
    if (new URL(request.url()).host === `localhost:${servers.main.port}`) problems.push(`other host: ${request.url()}`)
  })
  return problems
}

test.describe('the store opened under another host name than PUBLIC_URL', () => {
  test('album photos, the designer, the preview, the cart and the local checkout all stay on that host', async ({ page, login }) => {
    test.setTimeout(180_000)
    const problems = watchForBreakage(page)
    await login()

    await page.goto('/photo-products/photos')
    await waitForHydration(page)
    // The first few: the strip's later photos are lazy and load as it scrolls.
    const photos = page.getByRole('list', { name: 'Photos picked for ornaments' }).locator('img').filter({ visible: true }).locator('nth=0')
    await expect(photos.first()).toBeVisible()
    await expect
      .poll(() =>
        photos.evaluateAll((imgs) => imgs.length > 0 && imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
      )
      .toBe(true)
    const sources = await photos.evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).currentSrc))
    for (const src of sources) expect(new URL(src).origin).toBe(otherHost)

    await designStarAndAddToCart(page)
    const cartImages = page.locator('main img')
    await expect
      .poll(() => cartImages.evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)))
      .toBe(true)

    await page.getByRole('button', { name: /^Checkout/ }).click()
    await expect(page).toHaveURL(new RegExp(`^${otherHost.replaceAll('.', '\\.')}/utils/checkout/`), { timeout: 30_000 })
    expect(problems).toEqual([])
  })

  test('a photo uploaded from the device goes to the host the page is on', async ({ page, login }) => {
    const problems = watchForBreakage(page)
    await login()
    await page.goto('/photo-products/photos')
    await waitForHydration(page)
    const answer = await page.evaluate(async () => {
      const link = await fetch('/v1/media/growth-product-photo', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ fileName: 'x.jpg', fileType: 'image/jpeg' }),
      })
      return (await link.json()) as { signedRequest: string; url: string }
    })
    expect(answer.signedRequest).toMatch(/^\/v1\/media\/uploads\//)
    expect(answer.url).toMatch(/^\/v1\/media\/photos\//)
    expect(problems).toEqual([])
  })
})
