import { type Page } from '@playwright/test'
import { expectNoAxeViolations, shootBothWidths, waitForHydration } from './support'
import { expect, test } from './fixtures'

const BOOK = '/photo-products/addresses'
const SHOTS = 'addresses'

const form = (page: Page) => page.getByTestId('address-form')
const cards = (page: Page) => page.getByTestId('address-card')

async function fill(page: Page, address: Record<string, string>) {
  const f = form(page)
  for (const [name, value] of Object.entries(address)) {
    if (name === 'state') await f.locator('select[name="state"]').selectOption(value)
    else await f.locator(`[name="${name}"]`).fill(value)
  }
}

test.describe('the address book (issue 33)', () => {
  test('a shopper on a phone saves, corrects, changes and removes addresses; the book is theirs alone', async ({ page, browser, login }) => {
    test.slow()
    await page.setViewportSize({ width: 390, height: 844 })
    await login()

    await test.step('the account menu leads to an empty address book that says what it is for', async () => {
      await page.goto('/photo-products')
      await waitForHydration(page)
      await page.getByRole('button', { name: /your account/ }).click()
      await page.getByTestId('account-menu').getByRole('link', { name: 'Address book' }).click()
      await expect(page).toHaveURL(new RegExp(`${BOOK}$`))
      await expect(page.getByTestId('addresses-empty')).toContainText('Grandma Rose')
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'empty', SHOTS)
    })

    await test.step('a ZIP code of another state is refused at its field, which takes focus; nothing is saved', async () => {
      await page.getByTestId('addresses-empty').getByRole('button', { name: 'Add an address' }).click()
      await expect(form(page).locator('[name="label"]')).toBeFocused()
      await fill(page, { label: 'Grandma Rose', name: 'Rose Rivera', line1: '12 Orchard Lane', city: 'Burlington', state: 'VT', postalCode: '10001' })
      await form(page).getByRole('button', { name: 'Save address' }).click()
      const zip = form(page).locator('[name="postalCode"]')
      await expect(zip).toBeFocused()
      await expect(zip).toHaveAttribute('aria-invalid', 'true')
      await expect(form(page)).toContainText('ZIP code 10001 is not in Vermont')
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'zip-refused', SHOTS)
      const res = await page.request.get('/v1/photo-products-addresses')
      expect((await res.json()).addresses).toEqual([])
    })

    await test.step('corrected, it is saved and shown as a card, which takes focus', async () => {
      await fill(page, { postalCode: '05401' })
      await form(page).getByRole('button', { name: 'Save address' }).click()
      await expect(cards(page)).toHaveCount(1)
      await expect(page.getByRole('heading', { name: 'Grandma Rose' })).toBeFocused()
      await expect(cards(page).first()).toContainText('Burlington, VT 05401')
    })

    await test.step('a second address, with an e-mail, is listed by name', async () => {
      await page.getByTestId('add-address').click()
      await fill(page, {
        label: 'Aunt May',
        name: 'May Okafor',
        line1: '400 Congress Ave',
        line2: 'Apt 5',
        city: 'Austin',
        state: 'TX',
        postalCode: '78701',
        email: 'may@example.com',
      })
      await form(page).getByRole('button', { name: 'Save address' }).click()
      await expect(cards(page)).toHaveCount(2)
      await expect(cards(page).getByRole('heading')).toHaveText(['Aunt May', 'Grandma Rose'])
      await expect(page.getByTestId('address-count')).toHaveText('2 of 25 addresses saved.')
      await expectNoAxeViolations(page)
      await shootBothWidths(page, 'two-saved', SHOTS)
    })

    await test.step('an address is changed in place', async () => {
      await cards(page)
        .filter({ hasText: 'Grandma Rose' })
        .getByRole('button', { name: /Change/ })
        .click()
      await expect(form(page).locator('[name="line1"]')).toHaveValue('12 Orchard Lane')
      await shootBothWidths(page, 'changing', SHOTS)
      await fill(page, { line1: '14 Orchard Lane' })
      await form(page).getByRole('button', { name: 'Save address' }).click()
      await expect(cards(page).filter({ hasText: 'Grandma Rose' })).toContainText('14 Orchard Lane')
    })

    await test.step('another shopper does not see the book', async () => {
      const other = await browser.newContext({ baseURL: page.url() })
      const otherPage = await other.newPage()
      await login({ context: other })
      const res = await otherPage.request.get('/v1/photo-products-addresses')
      expect((await res.json()).addresses).toEqual([])
      await other.close()
    })

    await test.step('removing asks first, then removes it and returns focus to the page heading', async () => {
      const may = cards(page).filter({ hasText: 'Aunt May' })
      await may.getByRole('button', { name: /Remove/ }).click()
      await expect(may.getByRole('button', { name: 'Keep it' })).toBeFocused()
      await may.getByRole('button', { name: 'Remove address' }).click()
      await expect(cards(page)).toHaveCount(1)
      await expect(page.getByRole('heading', { level: 1, name: 'Address book' })).toBeFocused()
    })
  })
})
