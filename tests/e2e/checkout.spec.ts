import { type Page } from '@playwright/test'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { designStarAndAddToCart, expectNoAxeViolations, shootBothWidths, STAR_TITLE as TITLE, waitForHydration } from './support'
import { expect, test } from './fixtures'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const DECLINED = 'Your card was declined. Try another card; nothing was charged.'

/** Counts what the page sends: analytics events by name, and requests carrying a given text. */
function watchRequests(page: Page) {
  const bodies: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') bodies.push(request.postData() ?? '')
  })
  return (text: string) => bodies.reduce((n, body) => n + body.split(text).length - 1, 0)
}

/** The newest line: lines are listed in the order they were added. */
const newestLine = (page: Page) => page.getByTestId('cart-line').last()

async function settledCart(page: Page) {
  await expect(page.locator('#checkout-hint')).toHaveText('Shipping address and payment come next.')
}

async function fillAddress(page: Page) {
  await page.getByLabel('Address line 1').fill('12 Holly Lane')
  await page.getByLabel('City').fill('Portland')
  await page.getByLabel('State').selectOption('OR')
  await page.getByLabel('ZIP code').fill('97201')
}

test.describe('cart and checkout', () => {
  // The designer draws with WebGL on the CPU (SwiftShader) and the server renders the preview.
  test.describe.configure({ timeout: 240_000 })

  test('buys an ornament: add to cart, change quantity, a declined card, then a good one, and the order is listed', async ({ page, context, login }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    const sent = watchRequests(page)
    const shopper = await login()
    await designStarAndAddToCart(page)
    // The double tap on Add to cart sent one request and counted one addition.
    expect(sent('"printAreas"')).toBe(1)
    await expect.poll(() => sent('DidAddProductToCart')).toBe(1)

    const line = newestLine(page)
    await expect(line.getByRole('heading', { name: TITLE })).toBeVisible()
    await expect(line.getByRole('img', { name: `Your ${TITLE} design` })).toBeVisible()
    await expect(line.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('1')
    // The sale price next to the list price, struck through.
    await expect(line).toContainText('$24.99 $29.99 each')
    await expect(line.getByLabel('was $29.99').first()).toBeVisible()
    // A new shopper's cart: this design is its only line.
    const lines = 1
    await expect(page.getByTestId('cart-line')).toHaveCount(lines)

    await test.step('changes the quantity, shown at once and kept by the server', async () => {
      await line.getByRole('button', { name: `One more ${TITLE}` }).click()
      await expect(line.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('2')
      await expect(line.getByTestId('line-total')).toContainText('$49.98')
      await settledCart(page)
      await page.reload()
      await waitForHydration(page)
      await expect(newestLine(page).getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('2')
      await expect(page.getByRole('banner').getByRole('link', { name: /^Cart/ })).toContainText(/\d+ items/)
      await expectNoAxeViolations(page)
    })

    const cartTotal = (await page.getByRole('region', { name: 'Order summary' }).getByTestId('total').textContent())!

    let checkoutUrl = ''
    await test.step('checks out on the local hosted page', async () => {
      await page.getByRole('button', { name: 'Checkout' }).click()
      await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`))
      checkoutUrl = page.url()
      await waitForHydration(page)
      await expect(page.getByTestId('checkout-total')).toHaveText(cartTotal)
      await expect(page.getByRole('button', { name: `Pay ${cartTotal}` })).toBeVisible()
      await expect(page.getByTestId('order-line')).toHaveCount(lines)
      await expect(page.getByTestId('test-cards')).toContainText('4242 4242 4242 4242')
      await expect(page.getByTestId('test-cards')).toContainText('4000 0000 0000 0002')
      // The signed-in shopper's name and e-mail are filled in for them.
      await expect(page.getByLabel('Full name')).toHaveValue(shopper.name)
      await expect(page.getByLabel('E-mail')).toHaveValue(/@/)
    })

    await test.step('a declined card says so and keeps everything filled in', async () => {
      await fillAddress(page)
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.declined)
      await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002')
      await page.getByRole('button', { name: `Pay ${cartTotal}` }).click()
      await expect(page.getByText(DECLINED)).toBeVisible()
      await expect(page).toHaveURL(checkoutUrl)
      await expect(page.getByLabel('Address line 1')).toHaveValue('12 Holly Lane')
      await expect(page.getByLabel('City')).toHaveValue('Portland')
      await expect(page.getByLabel('State')).toHaveValue('OR')
      await expect(page.getByLabel('ZIP code')).toHaveValue('97201')
      await expect(page.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002')
      await expect(page.getByLabel('Card number')).toHaveAttribute('aria-invalid', 'true')
      await expectNoAxeViolations(page)

      // The cart still holds the design.
      const other = await context.newPage()
      await other.goto('/photo-products/cart')
      await expect(newestLine(other).getByRole('heading', { name: TITLE })).toBeVisible()
      await expect(newestLine(other).getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('2')
      await other.close()
    })

    await test.step('a bad ZIP code is pointed out at its field', async () => {
      await page.getByLabel('ZIP code').fill('9720')
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
      await page.getByRole('button', { name: `Pay ${cartTotal}` }).click()
      await expect(page.getByText('ZIP code must be 5 digits (or ZIP+4)')).toBeVisible()
      await expect(page.getByLabel('ZIP code')).toBeFocused()
      await page.getByLabel('ZIP code').fill('97201')
    })

    let reference = ''
    await test.step('the good card pays, and the return page thanks the shopper with the order reference', async () => {
      await page.getByRole('button', { name: `Pay ${cartTotal}` }).click()
      await expect(page).toHaveURL(new RegExp(`/photo-products/checkout/complete\\?checkout=${UUID}`), { timeout: 30_000 })
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Thank you, ${shopper.firstName}!`, { timeout: 30_000 })
      reference = (await page.getByTestId('order-reference').textContent())!
      expect(reference).toMatch(/^KS-[0-9A-F]+$/)
      await expect(page.getByTestId('shipping-address')).toContainText('12 Holly Lane')
      await expect(page.getByTestId('shipping-address')).toContainText('Portland, OR 97201')
      await expect(page.getByTestId('order-line')).toHaveCount(lines)
      await expect(page.getByTestId('total')).toHaveText(cartTotal)
      await expect(page.getByTestId('header-cart-count')).toHaveCount(0)
      await expectNoAxeViolations(page)
      await expect.poll(() => sent('DidCompleteCheckout')).toBe(1)
      // Reloading the page shows the same order, and does not count the purchase again.
      await page.reload()
      await expect(page.getByTestId('order-reference')).toHaveText(reference)
      await page.waitForTimeout(2500)
      expect(sent('DidCompleteCheckout')).toBe(1)
    })

    await test.step('the orders page lists the order', async () => {
      await page.getByRole('link', { name: 'See your orders' }).click()
      await expect(page).toHaveURL(/\/photo-products\/orders/)
      const card = page.getByTestId('order-card').filter({ hasText: reference })
      await expect(card).toBeVisible()
      await expect(card).toContainText(cartTotal)
      await expect(card.getByRole('list', { name: 'Order progress' })).toContainText('Paid')
      await expectNoAxeViolations(page)
    })

    await test.step('the paid checkout page sends the shopper to the return page', async () => {
      await page.goto(checkoutUrl)
      await expect(page).toHaveURL(/\/photo-products\/checkout\/complete\?checkout=/)
      await expect(page.getByTestId('order-reference')).toHaveText(reference)
    })
  })

  test('on a phone: remove and Undo restore the line; a cancelled or abandoned checkout resumes the cart as it was', async ({ page, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    const sent = watchRequests(page)
    await login()
    await designStarAndAddToCart(page)

    const line = newestLine(page)
    const identifier = await line.getAttribute('data-item-identifier')
    const lineCount = await page.getByTestId('cart-line').count()
    await line.getByRole('button', { name: `One more ${TITLE}` }).click()
    await line.getByRole('button', { name: `One more ${TITLE}` }).click()
    await expect(line.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
    await settledCart(page)

    await test.step('remove, then Undo', async () => {
      await line.getByRole('button', { name: `Remove ${TITLE}` }).click()
      await expect(page.locator(`[data-item-identifier="${identifier}"]`)).toHaveCount(0)
      if (lineCount === 1) await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible()
      await expect(page.getByText(`Removed your ${TITLE}`)).toBeVisible()
      await page.getByRole('button', { name: 'Undo' }).click()
      const restored = page.locator(`[data-item-identifier="${identifier}"]`)
      await expect(restored).toBeVisible()
      await expect(restored.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
      await settledCart(page)
      // The server has it back, too.
      await page.reload()
      await expect(page.locator(`[data-item-identifier="${identifier}"]`).getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
      await expectNoAxeViolations(page)
    })

    await test.step('checkout, then cancel: the cart is resumed as it was and the checkout has ended', async () => {
      const tray = page.getByTestId('checkout-tray')
      await expect(tray).toBeVisible()
      await tray.getByRole('button', { name: 'Checkout' }).click()
      await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`))
      const checkoutUrl = page.url()
      await waitForHydration(page)
      await expectNoAxeViolations(page)
      await page.getByRole('link', { name: 'Cancel and return to the store' }).click()
      await expect(page).toHaveURL(/\/photo-products\/cart$/)
      await expect(page.getByTestId('cart-return-note')).toContainText('Checkout cancelled.')
      await expect(page).not.toHaveURL(/cancelled=/)
      await expect.poll(() => sent('DidResumeCart')).toBe(1)
      await expect(page.locator(`[data-item-identifier="${identifier}"]`).getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
      await page.goto(checkoutUrl)
      await expect(page.getByRole('heading', { name: 'This checkout has ended' })).toBeVisible()
      await page.getByRole('link', { name: 'Back to your cart' }).click()
      await expect(page.locator(`[data-item-identifier="${identifier}"]`)).toBeVisible()
    })

    await test.step('a cart left in checkout elsewhere (abandoned) is resumed on arrival, with a welcome back', async () => {
      const origin = new URL(page.url()).origin
      const made = await page.request.post('/v1/photo-products-cart/checkout-session', { headers: { origin } })
      expect(made.status()).toBe(201)
      const { id } = (await made.json()) as { id: string }
      expect((await page.request.post(`/v1/photo-products-cart/checkout-session/${id}/cancel`, { headers: { origin } })).ok()).toBe(true)
      await page.goto('/photo-products/cart')
      await expect(page.getByTestId('cart-return-note')).toContainText('Welcome back!')
      await expect(page.locator(`[data-item-identifier="${identifier}"]`).getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
      await expect.poll(() => sent('DidResumeCart')).toBe(2)
      // Resumed on the server: a reload has nothing to resume, so no second welcome.
      await page.reload()
      await waitForHydration(page)
      await expect(page.locator(`[data-item-identifier="${identifier}"]`)).toBeVisible()
      await expect(page.getByTestId('cart-return-note')).toHaveCount(0)
    })

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  // Checkout pays for the cart as it is now: one Star in the cart, checkout open in one tab; in another tab the cart takes two more.
  test('a cart edited in another tab while its checkout is open: the checkout says so and offers the new total', async ({ page, context, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    // A brand-new demo family, so no other test's cart lines are in this one.
    await login()
    await designStarAndAddToCart(page)
    await settledCart(page)
    await page.getByRole('button', { name: 'Checkout' }).click()
    await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`))
    await waitForHydration(page)
    const first = (await page.getByTestId('checkout-total').textContent())!
    expect(first).toBe('$30.98')

    const other = await context.newPage()
    await other.setViewportSize({ width: 390, height: 844 })
    await other.goto('/photo-products/cart')
    await waitForHydration(other)
    const line = newestLine(other)
    await line.getByRole('button', { name: `One more ${TITLE}` }).click()
    await expect(line.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('2')
    await settledCart(other)
    await line.getByRole('button', { name: `One more ${TITLE}` }).click()
    await expect(line.getByRole('status', { name: /^Quantity \d+$/ })).toHaveText('3')
    await settledCart(other)
    const now = (await other.getByRole('region', { name: 'Order summary' }).getByTestId('total').textContent())!
    expect(now).toBe('$74.97')

    await test.step('paying the old checkout without a reload is refused, and the page says why', async () => {
      await fillAddress(page)
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
      await page.getByRole('button', { name: `Pay ${first}` }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Your cart changed' })).toBeVisible()
      await expect(page.getByText('Your cart changed after this checkout opened, so we closed it. Nothing was charged.')).toBeVisible()
      await expect(page.getByTestId('cart-now')).toContainText(now)
    })

    await test.step('a reload says the same, and checking out again pays the new total', async () => {
      await page.reload()
      await waitForHydration(page)
      await expect(page.getByTestId('checkout-cart-changed')).toBeVisible()
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'checkout-cart-changed')
      await page.getByRole('button', { name: `Check out ${now}` }).click()
      await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`))
      await expect(page.getByTestId('checkout-total')).toHaveText(now)
      // The new checkout page settles (loaded, hydrated) before the shopper types into it.
      await page.waitForLoadState('load')
      await waitForHydration(page)
      await fillAddress(page)
      await expect(page.getByLabel('State')).toHaveValue('OR')
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
      await page.getByRole('button', { name: `Pay ${now}` }).click()
      await expect(page).toHaveURL(/\/photo-products\/checkout\/complete/, { timeout: 30_000 })
      await expect(page.getByTestId('order-line')).toContainText('Qty 3')
    })
    await other.close()
  })

  // A refusal a signed-out shopper gets offers Sign in, not a Retry that cannot help.
  test('signed out in another tab, a cart change is refused with Sign in, which comes back to the cart', async ({ page, context, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await login()
    await designStarAndAddToCart(page)
    await settledCart(page)
    // Another tab signs out: the session ends on the server and the browser's cookie goes.
    expect((await context.request.delete('/v1/growth/authenticate-session')).status()).toBe(200)
    await newestLine(page)
      .getByRole('button', { name: `One more ${TITLE}` })
      .click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: `We couldn’t change the quantity of your ${TITLE}` })
    await expect(toast).toBeVisible()
    await toast.getByRole('button', { name: 'Sign in' }).click()
    await expect(page).toHaveURL(/\/utils\/demo-sign-in\?redirect=%2Fphoto-products%2Fcart$/)
  })
})
