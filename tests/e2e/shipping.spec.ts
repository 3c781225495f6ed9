import { type Page } from '@playwright/test'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { TIMEZONE_HEADER } from '../../app/contract/headers'
import type { ShippingCalendar } from '../../app/contract/shipping'
import { STAR, addStarAndOpenCart, expectNoAxeViolations, waitForHydration } from './support'
import { expect, test } from './fixtures'

/** The API's own answer for this time zone: what every page must show. */
async function calendarFor(page: Page, timeZone: string): Promise<ShippingCalendar> {
  const res = await page.request.get('/v1/photo-products-shipping', { headers: { [TIMEZONE_HEADER]: timeZone } })
  expect(res.status()).toBe(200)
  return (await res.json()) as ShippingCalendar
}

const weekday = (day: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(`${day}T00:00:00Z`))

async function expectChristmasBanner(page: Page, calendar: ShippingCalendar) {
  const banner = page.getByRole('complementary', { name: 'Christmas delivery' })
  if (!calendar.christmas) {
    await expect(banner).toHaveCount(0)
    return
  }
  const inTime = calendar.christmas.deadlines.filter((d) => d.inTime)
  if (inTime.length === 0) await expect(banner).toContainText('Orders placed now arrive after Christmas.')
  for (const deadline of inTime)
    await expect(banner).toContainText(`${weekday(deadline.lastOrderDay)} with ${deadline.method} shipping`, { timeout: CALENDAR_WAIT })
  for (const deadline of calendar.christmas.deadlines.filter((d) => !d.inTime)) {
    await expect(banner).toContainText(new RegExp(`${deadline.method} shipping now arrives after Christmas`, 'i'))
  }
}

/**
 * The first render's dates are for the server's day (UTC); the shopper's own arrive with a second request once the
 * page has hydrated, which on a busy CI machine can take longer than an assertion's default 5 s.
 */
const CALENDAR_WAIT = 20_000

test.describe('arrives-by dates', () => {
  // Hawaii: ten hours behind UTC, so the shopper's day differs from the server's for part of every day.
  test.use({ timezoneId: 'Pacific/Honolulu' })

  test('the product page and the landing give the days for the shopper’s time zone, and the Christmas deadlines', async ({ page }) => {
    test.setTimeout(120_000)
    const calendar = await calendarFor(page, 'Pacific/Honolulu')
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(STAR)
      await waitForHydration(page)
      const arrives = page.getByTestId('arrives-by')
      for (const method of calendar.methods)
        await expect(arrives).toContainText(`${weekday(method.arrivesBy)} with ${method.method} shipping`, { timeout: CALENDAR_WAIT })
      await expectChristmasBanner(page, calendar)
      await expectNoAxeViolations(page)
      await page.screenshot({ path: `test-results/shipping-product-${width}.png` })

      await page.goto('/photo-products')
      await waitForHydration(page)
      await expectChristmasBanner(page, calendar)
      await expectNoAxeViolations(page)
    }
  })

  test('the shopper chooses express in the cart, pays for it, the order keeps the promised day, and Order again refills the cart', async ({ page, login }) => {
    test.setTimeout(240_000)
    const calendar = await calendarFor(page, 'Pacific/Honolulu')
    const express = calendar.methods.find((m) => m.method === 'express')!
    await page.setViewportSize({ width: 390, height: 844 })
    // A shopper of its own: the test asserts on the whole cart, which another test's shopper would share.
    await login()
    await addStarAndOpenCart(page)

    const choice = page.getByRole('group', { name: 'Shipping' })
    const summary = page.getByRole('region', { name: 'Order summary' })
    await expect(choice.getByRole('radio', { name: /Standard/ })).toBeChecked()
    await expect(choice).toContainText(`Arrives by ${weekday(express.arrivesBy)}`)
    await expectChristmasBanner(page, calendar)
    await choice.getByRole('radio', { name: /Express/ }).check()
    await expect(summary.getByTestId('shipping')).toHaveText('$14.99')
    await expect(page.getByText('Saving your changes…')).toHaveCount(0)
    await expectNoAxeViolations(page)
    await page.screenshot({ path: 'test-results/shipping-cart-390.png', fullPage: true })
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: 'test-results/shipping-cart-1280.png', fullPage: true })

    // The choice is the cart's: a reload keeps it.
    await page.reload()
    await waitForHydration(page)
    await expect(page.getByRole('group', { name: 'Shipping' }).getByRole('radio', { name: /Express/ })).toBeChecked()
    const total = (await summary.getByTestId('total').textContent())!

    await summary.getByRole('button', { name: 'Checkout' }).click()
    await expect(page).toHaveURL(/\/utils\/checkout\/[0-9a-f-]{36}$/)
    await waitForHydration(page)
    await expect(page.getByTestId('promised-arrival')).toHaveText(`Express shipping · arrives by ${weekday(express.arrivesBy)}`)
    await expect(page.getByRole('button', { name: /^Pay / })).toContainText(total)
    await page.screenshot({ path: 'test-results/shipping-checkout-1280.png' })
    await page.getByLabel('Full name').fill('Leilani Kahale')
    await page.getByLabel('Address line 1').fill('12 Holly Lane')
    await page.getByLabel('City').fill('Hilo')
    await page.getByLabel('State').selectOption('HI')
    await page.getByLabel('ZIP code').fill('96720')
    await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
    await page.getByRole('button', { name: /^Pay / }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Thank you, .+!$/, { timeout: 30_000 })
    await expect(page.getByTestId('promised-arrival')).toHaveText(`Express shipping · arrives by ${weekday(express.arrivesBy)}`)
    const reference = (await page.getByTestId('order-reference').textContent())!

    await page.goto('/photo-products/orders')
    await waitForHydration(page)
    const card = page.getByTestId('order-card').filter({ hasText: reference })
    await expect(card.getByTestId('promised-arrival')).toHaveText(`Express shipping · arrives by ${weekday(express.arrivesBy)}`)
    await expectNoAxeViolations(page)
    await page.screenshot({ path: 'test-results/shipping-orders-1280.png' })
    await page.setViewportSize({ width: 390, height: 844 })
    await page.screenshot({ path: 'test-results/shipping-orders-390.png', fullPage: true })

    await test.step('Order again puts the same design back in the (now empty) cart at today’s price', async () => {
      await card.getByRole('button', { name: `Order again: ${reference}` }).click()
      await expect(page).toHaveURL(/\/photo-products\/cart$/)
      await expect(page.getByText('Back in your cart at today’s price')).toBeVisible()
      const lines = page.getByTestId('cart-lines').getByRole('listitem')
      await expect(lines).toHaveCount(1)
      await expect(lines.first()).toContainText('$24.99')
      await expect(page.getByRole('heading', { level: 1 })).toContainText('(1 item)')
    })
  })
})
