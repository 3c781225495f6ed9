import { CART_PAID_MESSAGE } from '../../app/catalogue/cart-terms'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { testAddress } from '../support/cart'
import { addStarToCartByApi, expectNoAxeViolations, waitForHydration } from './support'
import { expect, test } from './fixtures'

/**
 * Issue 43, item 8: the cart is open in one tab while another tab pays it. A change made in the first tab afterwards
 * is not saved to a cart no order will see: the shopper is told the cart was just paid, and the page shows the cart
 * as it is now (empty: the order took everything).
 */
test('a change in a tab whose cart another tab has just paid says so, and the cart shows what is left', async ({ page, login }) => {
  test.setTimeout(120_000)
  await login()
  await addStarToCartByApi(page)
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/photo-products/cart')
    await waitForHydration(page)
    const choice = page.getByRole('group', { name: 'Shipping' })
    await expect(choice.getByRole('radio', { name: /Standard/ })).toBeChecked()

    // The other tab: a checkout of this cart, paid.
    const session = await page.request.post('/v1/photo-products-cart/checkout-session')
    expect(session.status()).toBe(201)
    const paid = await page.request.post(`/v1/checkout/local/${(await session.json()).id}/pay`, {
      data: { cardNumber: LOCAL_TEST_CARDS.succeeds, shippingAddress: testAddress },
    })
    expect(paid.status(), await paid.text()).toBe(200)

    await choice.getByRole('radio', { name: /Express/ }).check()
    await expect(page.getByText(CART_PAID_MESSAGE, { exact: false })).toBeVisible()
    await expect(page.getByTestId('cart-empty')).toBeVisible()
    await page.screenshot({ path: `test-results/cart-paid-elsewhere-${width}.png` })
    await expectNoAxeViolations(page)
    if (width === 390) await addStarToCartByApi(page)
  }
  // Only the paid cart became an order each time: the refused change made none, and changed neither order.
  const orders = await page.request.get('/v1/photo-products-orders')
  expect(orders.status()).toBe(200)
  const list = (await orders.json()).orders as { totals: { shippingMethod: string } }[]
  expect(list.map((o) => o.totals.shippingMethod)).toEqual(['standard', 'standard'])
})
