/**
 * Screenshots of issue 42's items 2, 17 and 18 at 390 and 1280 px, with axe on each, against a store whose print
 * provider is Printify (the in-memory stand-in, tests/support/printify-mock.ts, served over HTTP):
 * `npm run build && npx tsx scripts/screenshots-issue42.ts` (into /tmp/shots/issue42/, or the folder given).
 *  - the cart's gift notes: the message goes by e-mail (no packing slip promised); a message without the e-mail refused;
 *  - an address saved from the cart: its parcel, which has focus;
 *  - the order page: no packing slip, where each message went;
 *  - a parcel Printify ships in two boxes: "1 of 2 shipped" with the first box's tracking (item 7);
 *  - the designer offline: "the connection was lost" with Retry, in sonner's toast and, where sonner was never
 *    fetched, in the plain one.
 */
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { chromiumLaunch } from '../playwright.config'
import { pseudoTemplates } from '../app/catalogue/ornaments'
import { cartItemOfGenerated, testAddress } from '../tests/support/cart'
import { createPrintifyMock, MOCK_PRINTIFY_SHOP_ID, MOCK_PRINTIFY_TOKEN } from '../tests/support/printify-mock'
import { PRINTIFY_WEBHOOK_PATH, PrintifyClient, syncPrintifyWebhooks } from '../app/api/providers/print/printify'
import { demoSignIn, readJson, shootViewport, startShotsServer } from './support/shots'

const PORT = Number(process.env.SHOTS_PORT ?? 5342)
const BASE = `http://localhost:${PORT}`
const OUT = path.resolve(process.argv[2] ?? '/tmp/shots/issue42')
const WIDTHS = [390, 1280] as const
const STAR = 72965
const write = { headers: { origin: BASE } }
const WEBHOOK_SECRET = 'screenshots-issue42-webhook-secret'

const shot = (page: Page, name: string, selector?: string) => shootViewport(page, OUT, name, selector ? { selector, block: 'start' } : undefined)
const hydrated = (page: Page) => page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'))

await mkdir(OUT, { recursive: true })
const mock = createPrintifyMock()
const printify = await mock.listen()
const server = await startShotsServer(PORT, '.data/shots-issue42', {
  PRINTIFY_API_TOKEN: MOCK_PRINTIFY_TOKEN,
  PRINTIFY_SHOP_ID: String(MOCK_PRINTIFY_SHOP_ID),
  PRINTIFY_API_URL: printify.url,
  ALLOW_TEST_CARDS_WITH_REAL_PROVIDER: 'true',
  PRINTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
})
// The store's webhook subscriptions, made by the script's own code (npm run printify:webhooks) against the stand-in.
await syncPrintifyWebhooks(
  new PrintifyClient({ apiToken: MOCK_PRINTIFY_TOKEN, shopId: MOCK_PRINTIFY_SHOP_ID, baseUrl: printify.url }),
  `${BASE}${PRINTIFY_WEBHOOK_PATH}`,
  WEBHOOK_SECRET,
)
const browser = await chromium.launch(chromiumLaunch)
try {
  for (const [i, width] of WIDTHS.entries()) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } })
    await context.request.get(`${BASE}/v1/demo/users`, { timeout: 300_000 })
    await demoSignIn(BASE, context, i === 0 ? 'Maya' : 'Sam')
    const { families } = await readJson<{ families: { familyId: string }[] }>(await context.request.get(`${BASE}/v1/keepsake-photos`))
    const { photos } = await readJson<{ photos: { id: string; url: string; width: number; height: number }[] }>(
      await context.request.get(`${BASE}/v1/keepsake-photos/${families[0]!.familyId}?limit=10`, { timeout: 120_000 }),
    )
    const generated = await context.request.post(`${BASE}/v1/printify/generate-preview`, {
      ...write,
      timeout: 120_000,
      data: {
        variantId: STAR,
        pseudoTemplateId: pseudoTemplates.star.id,
        backSideId: `${STAR}-1`,
        cells: [0, 1].map((n) => ({ cellId: n ? 'star-right' : 'star-left', photoId: photos[n]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
      },
    })
    if (!generated.ok()) throw new Error(`generate-preview answered ${generated.status()}: ${await generated.text()}`)
    const added = await context.request.post(`${BASE}/v1/photo-products-cart/items`, {
      ...write,
      data: { ...cartItemOfGenerated(await generated.json()), quantity: 3 },
    })
    const line = (await added.json()).item.id as string
    const entry = async (data: object) => (await (await context.request.post(`${BASE}/v1/photo-products-addresses`, { ...write, data })).json()).id as string
    const rose = await entry({
      label: 'Grandma Rose',
      name: 'Rose Rivera',
      line1: '4 Maple Court',
      city: 'Columbus',
      state: 'OH',
      postalCode: '43004',
      phone: '',
    })
    const june = await entry({
      label: 'Aunt June',
      name: 'June Park',
      line1: '88 Pine Street',
      city: 'Sacramento',
      state: 'CA',
      postalCode: '95814',
      phone: '',
    })
    const items = [{ cartItemId: line, quantity: 1 }]
    await context.request.put(`${BASE}/v1/photo-products-cart/parcels`, {
      ...write,
      data: {
        parcels: [
          { addressId: rose, items, giftMessage: 'Merry Christmas, Grandma!\nLove, Ava', recipientEmail: 'rose@example.org' },
          { addressId: june, items },
        ],
      },
    })

    const page = await context.newPage()
    await page.goto(`${BASE}/photo-products/cart`)
    await hydrated(page)
    await shot(page, `cart-printify-${width}`, '[data-testid="cart-parcels"]')

    // A message for June without her e-mail: refused at the e-mail field.
    const toJune = page.getByTestId('cart-parcel').filter({ hasText: 'To Aunt June' })
    await toJune.getByLabel('Gift message for Aunt June').fill('For your tree, with love')
    await toJune.getByRole('button', { name: 'Save the note' }).click()
    await toJune.getByTestId('field-error').filter({ hasText: 'Add their e-mail' }).waitFor()
    await shot(page, `cart-printify-refused-${width}`, '[data-parcel="' + june + '"]')

    // An address saved from the cart: its parcel takes focus.
    await toJune.getByLabel('Gift message for Aunt June').fill('')
    await page.getByTestId('add-parcel').click()
    await page.getByTestId('parcel-new-address').click()
    const form = page.getByTestId('address-form')
    for (const [name, value] of Object.entries({ label: 'Nana Ida', name: 'Ida Stone', line1: '9 Elm Road', city: 'Portland', postalCode: '97201' }))
      await form.locator(`[name="${name}"]`).fill(value)
    await form.locator('select[name="state"]').selectOption('OR')
    await form.getByRole('button', { name: 'Save address' }).click()
    await page.getByRole('heading', { name: 'To Nana Ida' }).waitFor()
    await page.waitForFunction(() => document.activeElement?.textContent === 'To Nana Ida')
    console.log(`focus after saving: ${await page.evaluate(() => `${document.activeElement?.tagName} “${document.activeElement?.textContent}”`)}`)
    await shot(page, `cart-focus-after-save-${width}`, '[data-parcel]:last-of-type')

    // Paid: the order page links no packing slip and says where each message went.
    const session = await (await context.request.post(`${BASE}/v1/photo-products-cart/checkout-session`, write)).json()
    const paid = await context.request.post(`${BASE}/v1/checkout/local/${session.id}/pay`, {
      ...write,
      data: { cardNumber: '4242424242424242', shippingAddress: testAddress },
    })
    if (!paid.ok()) throw new Error(`pay answered ${paid.status()}: ${await paid.text()}`)
    await page.goto(`${BASE}/photo-products/orders`)
    await hydrated(page)
    await page.getByText('Order details').first().click()
    await shot(page, `order-printify-${width}`, '[data-testid="parcels"]')

    // A parcel of two designs that Printify ships in two boxes: "1 of 2 shipped", the first box's tracking.
    const second = await context.request.post(`${BASE}/v1/printify/generate-preview`, {
      ...write,
      timeout: 120_000,
      data: {
        variantId: STAR,
        pseudoTemplateId: pseudoTemplates.star.id,
        backSideId: `${STAR}-2`,
        cells: [2, 3].map((n, k) => ({ cellId: k ? 'star-right' : 'star-left', photoId: photos[n]!.id, transform: { x: 0, y: 0, zoom: 1, rotation: 0 } })),
      },
    })
    if (!second.ok()) throw new Error(`generate-preview answered ${second.status()}: ${await second.text()}`)
    for (const made of [await generated.json(), await second.json()])
      await context.request.post(`${BASE}/v1/photo-products-cart/items`, { ...write, data: cartItemOfGenerated(made) })
    const known = new Set(mock.orders.keys())
    const twoBoxes = await (await context.request.post(`${BASE}/v1/photo-products-cart/checkout-session`, write)).json()
    const paidTwo = await context.request.post(`${BASE}/v1/checkout/local/${twoBoxes.id}/pay`, {
      ...write,
      data: { cardNumber: '4242424242424242', shippingAddress: testAddress },
    })
    if (!paidTwo.ok()) throw new Error(`pay answered ${paidTwo.status()}: ${await paidTwo.text()}`)
    // The order's one parcel reaches the stand-in from the submission job, as one Printify order of two line items.
    const newOrder = () => [...mock.orders.values()].find((o) => !known.has(o.id) && o.line_items.length === 2)
    for (let tries = 0; !newOrder() && tries < 600; tries++) await new Promise((resolve) => setTimeout(resolve, 100))
    const sent = newOrder()
    if (!sent) throw new Error('the paid order never reached the Printify stand-in')
    await mock.advanceOrder(sent.id, 'sent-to-production')
    await mock.advanceOrder(sent.id, 'shipped', { number: '9400111899221111111111' }, [1])
    await page.goto(`${BASE}/photo-products/orders`)
    await hydrated(page)
    await page.getByText('Order details').first().click()
    await page.getByText('1 of 2 shipped').first().waitFor()
    await shootViewport(page, OUT, `order-partly-shipped-${width}`, { selector: 'text=1 of 2 shipped >> nth=0', block: 'center' })

    // The designer offline: the preview says the connection was lost, with Retry.
    await page.goto(`${BASE}/photo-products/ornaments/${STAR}`)
    await page.evaluate(([key, draft]) => localStorage.setItem(key, JSON.stringify(draft)), [
      `keepsake.design.${STAR}`,
      {
        photos: Object.fromEntries(
          ['star-left', 'star-right'].map((cell, n) => [cell, { id: photos[n]!.id, url: photos[n]!.url, width: photos[n]!.width, height: photos[n]!.height }]),
        ),
        transforms: {},
        backSideId: null,
        editedAt: new Date().toISOString(),
        owner: null,
      },
    ] as const)
    await page.goto(`${BASE}/photo-products/ornaments/${STAR}`)
    await hydrated(page)
    await page.locator('[data-testid="preview-stage"][data-state="ready"]').waitFor({ timeout: 120_000 })
    const noThanks = page.getByRole('button', { name: 'No thanks' })
    if (await noThanks.isVisible()) await noThanks.click()
    await page.getByText('Loading photo…').first().waitFor({ state: 'detached', timeout: 60_000 })
    await context.setOffline(true)
    await page.getByRole('button', { name: 'Preview my ornament' }).click()
    await page.getByText('We could not make your preview: the connection was lost.').waitFor()
    await shot(page, `designer-offline-${width}`)
    await context.setOffline(false)

    // The same in a browser that never fetched the toaster (its chunk not cached): the note is shown plainly.
    const fresh = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 }, storageState: await context.storageState() })
    const plain = await fresh.newPage()
    await plain.goto(`${BASE}/photo-products/ornaments/${STAR}`)
    await hydrated(plain)
    await plain.locator('[data-testid="preview-stage"][data-state="ready"]').waitFor({ timeout: 120_000 })
    await plain.getByText('Loading photo…').first().waitFor({ state: 'detached', timeout: 60_000 })
    await fresh.setOffline(true)
    await plain.getByRole('button', { name: 'Preview my ornament' }).click()
    await plain.getByTestId('plain-toast').waitFor()
    await shot(plain, `designer-offline-plain-${width}`)
    await fresh.close()
    await context.close()
  }
} finally {
  await browser.close()
  server.kill('SIGTERM')
  await printify.close()
}
