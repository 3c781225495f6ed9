import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import { fromJSON } from 'seroval'
import { servers } from '../../playwright.config'
import { pseudoTemplates } from '../../app/catalogue/ornaments'
import { cartItemOfGenerated } from '../support/cart'

export const urlOf = (server: keyof typeof servers, path = '/') => `http://localhost:${servers[server].port}${path}`

/** Navigates inside the single-page app, as a link click would, without a full page load. */
export async function clientNavigate(page: Page, href: string) {
  await page.evaluate((target) => {
    const router = (window as unknown as { __TSR_ROUTER__: { navigate: (o: { href: string }) => Promise<void> } }).__TSR_ROUTER__
    void router.navigate({ href: target })
  }, href)
}

/** Waits until the app has hydrated, so client navigation and clicks go through the router. */
export async function waitForHydration(page: Page) {
  // The root's effect marks the page once React has hydrated it (the router exists earlier, before hydrateRoot).
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))
  await page.waitForLoadState('networkidle')
}

/**
 * Axe reads colours as painted: a toast still fading in or out reads as low contrast (seen in CI: "serious
 * color-contrast: div[data-title]" on a toast mid-animation). Waits until every toast has finished moving.
 */
async function toastsSettled(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-sonner-toast]')].every(
      (toast) =>
        toast.getAnimations({ subtree: true }).every((a) => a.playState !== 'running') &&
        // A toast stacked beyond the visible ones, or on its way out, rests hidden on purpose.
        (getComputedStyle(toast).opacity === '1' || toast.getAttribute('data-visible') === 'false' || toast.getAttribute('data-removed') === 'true'),
    ),
  )
}

export async function expectNoSeriousAxeViolations(page: Page) {
  await toastsSettled(page)
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

export const STAR = '/photo-products/ornaments/72965'
export const STAR_TITLE = 'Star Photo Ornament'

/**
 * Signs in by walking the demo sign-in page. Browser tests in tests/e2e sign in with the `login` fixture
 * (tests/e2e/fixtures.ts) unless signing in is what they test; the two-instance suite (tests/instances) still uses this.
 */
export async function signInAs(page: Page, name: string) {
  await page.goto('/utils/demo-sign-in')
  await waitForHydration(page)
  await page.getByRole('button', { name: `Sign in as ${name}` }).click()
  await expect(page.getByTestId('current-user')).toHaveText(`Signed in as ${name}`)
}

/** Every axe violation, whatever its impact. */
export async function expectNoAxeViolations(page: Page) {
  await toastsSettled(page)
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

export async function pickPhoto(page: Page, slot: 'left' | 'right', nth: number) {
  await page.getByRole('button', { name: new RegExp(`^(Choose|Change) photo for the ${slot} ornament$`) }).click()
  const dialog = page.getByRole('dialog', { name: `Choose a photo for the ${slot} ornament` })
  const tiles = dialog.getByTestId('album-grid').getByRole('button')
  await expect(tiles.nth(nth)).toBeVisible()
  await tiles.nth(nth).click()
  await expect(dialog).toBeHidden()
}

/** Designs a star pair, previews it, and adds it to the cart from the preview: the shopper lands on the cart. */
export async function designStarAndAddToCart(page: Page) {
  await page.goto(STAR)
  await waitForHydration(page)
  await expect(page.getByTestId('preview-stage')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 })
  await pickPhoto(page, 'left', 1)
  await pickPhoto(page, 'right', 2)
  await expect(page.getByTestId('preview-stage').getByText('Loading photo…')).toHaveCount(0, { timeout: 20_000 })
  await page.getByRole('button', { name: 'Preview my ornament' }).click()
  const result = page.getByRole('dialog', { name: 'Your star ornaments' })
  await expect(result).toBeVisible({ timeout: 60_000 })
  const add = result.getByRole('button', { name: /^Add to cart/ })
  await expect(add).toContainText('$24.99')
  // A double tap sends one request: the button is disabled as soon as the first lands.
  await add.dblclick()
  await expect(page).toHaveURL(/\/photo-products\/cart$/, { timeout: 30_000 })
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Your cart')
  await expect(page.getByText(`Your ${STAR_TITLE} is in your cart`)).toBeVisible()
}

/**
 * A star from the shopper's first two album photos, rendered by the API and put in the cart through /v1, as the
 * designer's "Add to cart" sends it: for tests about the cart and what follows it, not the designer (which
 * designStarAndAddToCart drives, and checkout.spec keeps doing). Answers the cart line's id.
 */
export async function addStarToCartByApi(page: Page): Promise<string> {
  const request = page.request
  const json = async (res: Awaited<ReturnType<typeof request.get>>, status: number): Promise<any> => {
    expect(res.status(), await res.text()).toBe(status)
    return res.json()
  }
  const { families } = await json(await request.get('/v1/keepsake-photos'), 200)
  const { photos } = await json(await request.get(`/v1/keepsake-photos/${families[0].familyId}`), 200)
  const cell = (cellId: string, photoId: string) => ({ cellId, photoId, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })
  const generated = await json(
    await request.post('/v1/printify/generate-preview', {
      data: {
        variantId: 72965,
        pseudoTemplateId: pseudoTemplates.star.id,
        backSideId: '72965-3',
        cells: [cell('star-left', photos[0].id), cell('star-right', photos[1].id)],
      },
    }),
    201,
  )
  const added = await json(await request.post('/v1/photo-products-cart/items', { data: cartItemOfGenerated(generated) }), 201)
  return added.item.id as string
}

/** addStarToCartByApi, then the cart page, hydrated: where a test about the cart starts. */
export async function addStarAndOpenCart(page: Page) {
  const line = await addStarToCartByApi(page)
  await page.goto('/photo-products/cart')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Your cart')
  await expect(page.getByRole('group', { name: `Quantity of ${STAR_TITLE}` })).toBeVisible()
  return line
}

export type SentEvent = { event: string; properties: Record<string, unknown>; uuid: string | null; path: string }

/**
 * Every analytics event the page sends to the store (the recordAnalytics server function), decoded
 * from the call's seroval body, so a test can assert an event's name and properties.
 */
export function sentAnalytics(page: Page): SentEvent[] {
  const events: SentEvent[] = []
  page.on('request', (request) => {
    const body = request.method() === 'POST' && request.url().includes('/_serverFn/') ? request.postData() : null
    if (!body?.includes('"occurredAt"')) return
    const call = fromJSON(JSON.parse(body)) as { data?: { events?: SentEvent[] } }
    events.push(...(call.data?.events ?? []))
  })
  return events
}

/** Waits until an event of that name has been sent, and answers the first. */
export async function sentEvent(events: SentEvent[], name: string): Promise<SentEvent> {
  await expect.poll(() => events.some((e) => e.event === name), { message: `${name} was sent`, timeout: 15_000 }).toBe(true)
  return events.find((e) => e.event === name)!
}

/** Screenshots of the page as it is, at phone (390) and desktop (1280) width, into /tmp/shots/<folder>/ for a person to look at. */
export async function shootBothWidths(page: Page, name: string, folder = 'edges') {
  const before = page.viewportSize()
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await page.screenshot({ path: `/tmp/shots/${folder}/${name}-${width}.png`, fullPage: width === 1280 })
  }
  if (before) await page.setViewportSize(before)
}

/**
 * PostHog cannot be reached from here: its calls are answered as PostHog would. Answers the list of
 * URLs the page called, so a test can tell whether PostHog was used at all.
 */
export async function answerPostHog(page: Page) {
  const calls: string[] = []
  await page.route(/posthog\.com/, (route) => {
    calls.push(route.request().url())
    return route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":1}' })
  })
  return calls
}

export type ReadBody = { kind: string; url: string; body: string }

/**
 * Every page, script and fetch response the page gets from now on, each body read as it arrives. `all()` answers
 * them once every body has been read, so a test looks for a secret in what the browser really received, not in
 * whichever reads happened to have finished.
 */
export function responseBodies(page: Page) {
  const reading: Promise<ReadBody>[] = []
  page.on('response', (r) => {
    const kind = r.request().resourceType()
    // A redirect has no body to read.
    if (['document', 'script', 'fetch'].includes(kind))
      reading.push(
        r.text().then(
          (body) => ({ kind, url: r.url(), body }),
          () => ({ kind, url: r.url(), body: '' }),
        ),
      )
  })
  return { all: () => Promise.all(reading) }
}
