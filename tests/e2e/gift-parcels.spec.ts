import { type Page } from '@playwright/test'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { STAR_TITLE, addStarAndOpenCart, expectNoAxeViolations, shootBothWidths, waitForHydration } from './support'
import { expect, test } from './fixtures'

const SHOTS = 'gift-parcels'
const parcel = (page: Page, label: string) => page.getByTestId('cart-parcel').filter({ has: page.getByRole('heading', { name: `To ${label}` }) })

/** Saves a new address from the cart's "Send to" picker: the parcel to it appears with one ornament. */
async function sendToNewAddress(page: Page, address: Record<string, string>) {
  await page.getByTestId('add-parcel').click()
  await page.getByTestId('parcel-new-address').click()
  const form = page.getByTestId('address-form')
  for (const [name, value] of Object.entries(address)) {
    if (name === 'state') await form.locator('select[name="state"]').selectOption(value)
    else await form.locator(`[name="${name}"]`).fill(value)
  }
  await form.getByRole('button', { name: 'Save address' }).click()
  await expect(parcel(page, address.label!)).toBeVisible()
}

async function writeNote(page: Page, label: string, message: string) {
  const card = parcel(page, label)
  await card.getByLabel(`Gift message for ${label}`).fill(message)
  await card.getByRole('button', { name: 'Save the note' }).click()
  await expect(page.getByText(`Saved the note for ${label}`)).toBeVisible()
}

test.describe('gifts that travel (issue 33)', () => {
  test.describe.configure({ timeout: 360_000 })

  test('one design, three ornaments, three addresses, two notes, express to one: paid once, three parcels shipped apart, slips without prices', async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await login()
    // One address already in the book.
    const saved = await page.request.post('/v1/photo-products-addresses', {
      data: { label: 'Nana Ida', name: 'Ida Stone', line1: '9 Elm Road', city: 'Portland', state: 'OR', postalCode: '97201', phone: '' },
    })
    expect(saved.status()).toBe(201)

    await addStarAndOpenCart(page)
    for (let i = 0; i < 2; i++) await page.getByRole('button', { name: `One more ${STAR_TITLE}` }).click()
    await expect(page.getByRole('group', { name: `Quantity of ${STAR_TITLE}` }).getByText('3')).toBeVisible()

    await test.step('two addresses saved from the cart, one picked from the book; notes for two, express to one', async () => {
      await sendToNewAddress(page, { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004' })
      await sendToNewAddress(page, { label: 'Aunt June', name: 'June Park', line1: '88 Pine Street', city: 'Sacramento', state: 'CA', postalCode: '95814' })
      await page.getByTestId('add-parcel').click()
      await page
        .getByTestId('parcel-picker')
        .getByRole('button', { name: /Nana Ida/ })
        .click()
      await expect(parcel(page, 'Nana Ida')).toBeVisible()
      // All three ornaments now go to family: nothing ships to the shopper.
      await expect(page.getByTestId('cart-parcel')).toHaveCount(3)
      await expect(page.getByText('Every ornament is going to family.', { exact: false })).toBeVisible()
      await writeNote(page, 'Grandma Rose', 'Merry Christmas, Grandma!\nLove, Ava')
      await writeNote(page, 'Aunt June', 'For your tree, with love')
      const express = parcel(page, 'Aunt June').getByRole('radio', { name: /Express/ })
      await express.click()
      await expect(express).toBeChecked()
      await expect(parcel(page, 'Aunt June').getByTestId('parcel-money')).toContainText('Shipping $14.99')
      await expect(parcel(page, 'Grandma Rose').getByTestId('parcel-money')).toContainText('Estimated tax (OH)')
      const summary = page.getByRole('region', { name: 'Order summary' })
      // Three parcels' shipping: 5.99 + 14.99 + 5.99.
      await expect(summary.getByTestId('shipping')).toHaveText('$26.97')
      await expect(summary.getByText('Estimated tax (OH, CA, OR)')).toBeVisible()
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'cart-with-parcels', SHOTS)
    })

    await test.step('the address book holds all three', async () => {
      await page.goto('/photo-products/addresses')
      await waitForHydration(page)
      await expect(page.getByTestId('address-card')).toHaveCount(3)
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'address-book', SHOTS)
    })

    let reference = ''
    await test.step('paid once: the checkout asks only for the shopper’s own address, and the receipt lists three parcels and the tax', async () => {
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto('/photo-products/cart')
      await waitForHydration(page)
      await page.getByRole('button', { name: 'Checkout' }).click()
      await expect(page).toHaveURL(/\/utils\/checkout\/[0-9a-f-]{36}$/)
      await waitForHydration(page)
      await expect(page.getByTestId('checkout-parcels')).toContainText('Grandma Rose (Columbus, OH)')
      await expect(page.getByText('Your address', { exact: true })).toBeVisible()
      await page.getByLabel('Full name').fill('Ava Rivera')
      await page.getByLabel('E-mail').fill('ava@example.com')
      await page.getByLabel('Address line 1').fill('12 Orchard Street')
      await page.getByLabel('City').fill('New York')
      await page.getByLabel('State').selectOption('NY')
      await page.getByLabel('ZIP code').fill('10002')
      await page.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'checkout', SHOTS)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.getByRole('button', { name: /^Pay \$/ }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Thank you/, { timeout: 30_000 })
      await expect(page.getByText('Shipping in 3 parcels')).toBeVisible()
      await expect(page.getByTestId('parcel')).toHaveCount(3)
      await expect(page.getByText('Sales tax (OH, CA, OR)')).toBeVisible()
      reference = (await page.getByTestId('order-reference').textContent())!
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'receipt', SHOTS)
    })

    await test.step('each parcel ships with its own tracking; the order page shows three parcels and the tax', async () => {
      const orderOf = async () => {
        const orders = (await (await page.request.get('/v1/photo-products-orders')).json()).orders as {
          reference: string
          parcels: { status: string; trackingNumber: string | null }[]
        }[]
        return orders.find((o) => o.reference === reference)!
      }
      // The local print provider moves each parcel along on its own (LOCAL_FULFILMENT_STEP_SECONDS on the e2e server).
      await expect
        .poll(async () => (await orderOf()).parcels.map((p) => p.status), { timeout: 240_000, intervals: [2_000] })
        .toEqual(['shipped', 'shipped', 'shipped'])
      const numbers = (await orderOf()).parcels.map((p) => p.trackingNumber)
      expect(new Set(numbers).size).toBe(3)
      await page.setViewportSize({ width: 390, height: 844 })
      await page.goto('/photo-products/orders')
      await waitForHydration(page)
      const card = page.getByTestId('order-card').filter({ hasText: reference })
      await card.getByText('Order details').click()
      await expect(card.getByTestId('parcel')).toHaveCount(3)
      await expect(card.getByText('Sales tax (OH, CA, OR)')).toBeVisible()
      // Issue 32: each number links where the shipping e-mail links it (the local shop's are UPS numbers).
      for (const number of numbers) {
        await expect(card.getByTestId('parcel').getByText(number!)).toBeVisible()
        await expect(card.getByRole('link', { name: new RegExp(`^${number}`) })).toHaveAttribute('href', `https://www.ups.com/track?tracknum=${number}`)
      }
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'order-page', SHOTS)

      // The packing slips: the messages where they were written, and no prices on any.
      const slips = card.getByRole('link', { name: /^Packing slip/ })
      await expect(slips).toHaveCount(3)
      const texts: string[] = []
      for (let i = 0; i < 3; i++) {
        const res = await page.request.get((await slips.nth(i).getAttribute('href'))!)
        expect(res.status()).toBe(200)
        const html = await res.text()
        expect(html).not.toMatch(/\$\s?\d/)
        texts.push(html)
      }
      expect(texts[0]).toContain('Merry Christmas, Grandma!')
      expect(texts[1]).toContain('For your tree, with love')
      expect(texts[2]).not.toContain('Love, Ava')
      await page.goto((await slips.nth(0).getAttribute('href'))!)
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'packing-slip', SHOTS)
    })
  })

  test('an address saved from the cart, or picked from the book, takes focus on its parcel; the note promises the packing slip (issue 42, items 18 and 2)', async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await login()
    const saved = await page.request.post('/v1/photo-products-addresses', {
      data: { label: 'Nana Ida', name: 'Ida Stone', line1: '9 Elm Road', city: 'Portland', state: 'OR', postalCode: '97201', phone: '' },
    })
    expect(saved.status()).toBe(201)
    await addStarAndOpenCart(page)
    await page.getByRole('button', { name: `One more ${STAR_TITLE}` }).click()
    await expect(page.getByRole('group', { name: `Quantity of ${STAR_TITLE}` }).getByText('2')).toBeVisible()

    await sendToNewAddress(page, { label: 'Grandma Rose', name: 'Rose Rivera', line1: '4 Maple Court', city: 'Columbus', state: 'OH', postalCode: '43004' })
    const rose = parcel(page, 'Grandma Rose').getByRole('heading', { name: 'To Grandma Rose' })
    await expect(rose).toBeFocused()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('To Grandma Rose')
    // The local print shop prints the message on the slip: the cart says so, and the e-mail stays optional.
    await expect(parcel(page, 'Grandma Rose')).toContainText('Printed on the packing slip, with no prices.')

    await page.getByTestId('add-parcel').click()
    await page
      .getByTestId('parcel-picker')
      .getByRole('button', { name: /Nana Ida/ })
      .click()
    await expect(parcel(page, 'Nana Ida').getByRole('heading', { name: 'To Nana Ida' })).toBeFocused()
    await expectNoAxeViolations(page)
  })
})
