import { type Page } from '@playwright/test'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { addStarAndOpenCart, expectNoAxeViolations, shootBothWidths, waitForHydration } from './support'
import { expect, test } from './fixtures'

/** One star pair: $24.99 at the sale price, $5.99 standard shipping. */
const GOODS = 2499
const SHIPPING = 599
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`

async function fillNewYorkAddress(page: Page) {
  await page.getByLabel('Address line 1').fill('12 Orchard Street')
  await page.getByLabel('City').fill('New York')
  await page.getByLabel('State').selectOption('NY')
  await page.getByLabel('ZIP code').fill('10002')
}

test.describe('sales tax (decision 052)', () => {
  test.describe.configure({ timeout: 240_000 })

  test('the cart says it is calculated at checkout, the checkout adds the state’s tax, and the receipt, the order and the next cart show it', async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    // A family of its own, with no order yet: no state to estimate for.
    await login()
    await addStarAndOpenCart(page)
    const summary = page.getByRole('region', { name: 'Order summary' })
    await expect(summary.getByTestId('tax')).toHaveText('Calculated at checkout')
    await expect(summary.getByTestId('total')).toHaveText(dollars(GOODS + SHIPPING))
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'cart-untaxed', 'sales-tax')

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: 'Checkout' }).click()
    await expect(page).toHaveURL(/\/utils\/checkout\/[0-9a-f-]{36}$/)
    await waitForHydration(page)
    await expect(page.getByTestId('tax')).toHaveText('Added with the address')
    await expect(page.getByTestId('checkout-total')).toHaveText(dollars(GOODS + SHIPPING))

    // New York taxes the ornament and the shipping at 4 %: (24.99 + 5.99) × 4 % = 1.24.
    const tax = Math.round((GOODS + SHIPPING) * 0.04)
    const total = dollars(GOODS + SHIPPING + tax)
    await fillNewYorkAddress(page)
    await expect(page.getByTestId('tax')).toHaveText(dollars(tax))
    await expect(page.getByText('Sales tax (NY)')).toBeVisible()
    await expect(page.getByTestId('checkout-total')).toHaveText(total)
    await expect(page.getByRole('button', { name: `Pay ${total}` })).toBeVisible()
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'checkout-taxed', 'sales-tax')

    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
    await page.getByRole('button', { name: `Pay ${total}` }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Thank you, .+!$/, { timeout: 30_000 })
    await expect(page.getByTestId('tax')).toHaveText(dollars(tax))
    await expect(page.getByText('Sales tax (NY)')).toBeVisible()
    await expect(page.getByTestId('total')).toHaveText(total)
    const reference = (await page.getByTestId('order-reference').textContent())!
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'receipt-taxed', 'sales-tax')

    await page.goto('/photo-products/orders')
    await waitForHydration(page)
    const card = page.getByTestId('order-card').filter({ hasText: reference })
    await card.getByText('Order details').click()
    await expect(card.getByTestId('tax')).toHaveText(dollars(tax))
    await expect(card.getByTestId('total')).toHaveText(total)
    // The packing slip of its one parcel: what is in the box and where it goes, and no prices.
    await expect(card.getByTestId('parcel')).toHaveCount(1)
    const slip = await page.request.get((await card.getByRole('link', { name: /^Packing slip/ }).getAttribute('href'))!)
    expect(slip.status()).toBe(200)
    const html = await slip.text()
    expect(html).toContain(`Packing slip ${reference}`)
    expect(html).toContain('New York, NY 10002')
    expect(html).not.toMatch(/\$\s?\d/)
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'orders-taxed', 'sales-tax')

    // The next cart estimates for the state the last order went to.
    await page.setViewportSize({ width: 390, height: 844 })
    await addStarAndOpenCart(page)
    await expect(summary.getByText('Estimated tax (NY)')).toBeVisible()
    await expect(summary.getByTestId('tax')).toHaveText(dollars(tax))
    await expect(summary.getByTestId('tax-detail')).toHaveText('Final once checkout has the address')
    await expect(summary.getByTestId('total')).toHaveText(total)
    await expectNoAxeViolations(page)
    await shootBothWidths(page, 'cart-estimated', 'sales-tax')
  })
})
