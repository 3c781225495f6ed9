import { type Page } from '@playwright/test'
import { expectNoAxeViolations, waitForHydration } from './support'
import { expect, test } from './fixtures'

const loopPages = [
  '/loop',
  '/loop/modal',
  '/loop/modal/holidays',
  '/loop/modal/new-user',
  '/loop/mothers-day',
  '/loop/mothers-day-b',
  '/loop/fathers-day',
  '/loop/grandparents-day',
  '/loop/store/',
]

/** A fresh e-mail per test run: the servers keep sign-ups for as long as they run. */
const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

async function openSmokescreen(page: Page, button: string, dialogName: string) {
  await page.getByRole('button', { name: button }).click()
  const dialog = page.getByRole('dialog', { name: dialogName })
  await expect(dialog).toBeVisible()
  return dialog
}

test.describe('campaign pages show the shopper’s album', () => {
  test('a signed-in shopper sees album photos, and a tap lands in the designer for the campaign’s shape with that photo placed', async ({ page, login }) => {
    // The designer loads its renderer and templates: slow while four servers share two cores.
    test.slow()
    await login()
    await page.goto('/loop/fathers-day')
    await waitForHydration(page)
    const photos = page.getByRole('link', { name: /^Start a .+ ornament with / })
    await expect(photos.first()).toBeVisible()
    await expect(photos).toHaveCount(8)
    const picked = photos.nth(2)
    const src = await picked.locator('img').getAttribute('src')
    expect(src).toBeTruthy()
    await picked.click()
    // Father's Day sells the stocking (72960).
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72960(\?|$)/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Design your stocking ornaments')
    const slots = page.getByTestId('photo-slot')
    // The photo is placed once the designer knows the account's saved designs: over 15 s on a loaded CI machine.
    await expect(slots.first().locator('img')).toHaveAttribute('src', src!, { timeout: 45_000 })
    // The pair's second ornament gets the next photo; either can be swapped.
    await expect(slots.nth(1).locator('img')).toHaveCount(1)
    await expect(page.getByRole('button', { name: 'Change photo for the left ornament' })).toBeVisible()
  })

  test('each campaign’s call to action leads into the designer for its shape', async ({ page }) => {
    await page.goto('/loop/mothers-day')
    await expect(page.getByRole('link', { name: 'Make Mum’s keepsake' })).toHaveAttribute('href', '/photo-products/ornaments/72965')
    await page.goto('/loop/mothers-day-b')
    await expect(page.getByRole('link', { name: 'Choose photos for Mum' })).toHaveAttribute('href', '/photo-products/ornaments/72963')
    await page.goto('/loop/modal/new-user')
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Try it with my photos' }).click()
    await expect(page).toHaveURL(/\/photo-products\/ornaments\/72960$/)
  })

  test('signed out, a campaign keeps its art and asks the shopper to sign in, coming back with their photos', async ({ page }) => {
    await page.goto('/loop/mothers-day')
    await expect(page.locator('main svg[role="img"]').first()).toBeVisible()
    const prompt = page.getByTestId('campaign-photos-signed-out')
    await expect(prompt).toContainText('Sign in to see your photos')
    await expect(page.getByRole('link', { name: /^Start a .+ ornament with / })).toHaveCount(0)
    const signIn = prompt.getByRole('link', { name: 'Sign in' })
    await expect(signIn).toHaveAttribute('href', /^\/utils\/demo-sign-in\?redirect=(%2F|\/)loop(%2F|\/)mothers-day$/)
    await waitForHydration(page)
    await signIn.click()
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Sign in as Maya Rivera' }).click()
    await expect(page).toHaveURL(/\/loop\/mothers-day$/)
    await expect(page.getByRole('link', { name: /^Start a .+ ornament with / }).first()).toBeVisible()
    await expect(page.getByTestId('campaign-photos-signed-out')).toHaveCount(0)
  })
})

test.describe('sheets and experiments', () => {
  for (const path of ['/loop/modal', '/loop/modal/holidays', '/loop/modal/new-user']) {
    test(`${path} is a sheet whose Close follows the store-tab deep link`, async ({ page }) => {
      await page.goto(path)
      const main = page.locator('main')
      await expect(main).toHaveAttribute('data-presentation', 'sheet')
      await expect(main).toHaveAttribute('data-campaign', /^modal/)
      const close = page.getByRole('link', { name: 'Close' })
      await expect(close).toBeVisible()
      // playwright.config.ts sets no DEEP_LINK_STORE_TAB, so the configured default applies.
      await expect(close).toHaveAttribute('href', 'keepsake://store')
      // No marketing footer inside a sheet: the how-it-works section is for full pages.
      await expect(page.locator('#how-it-works')).toHaveCount(0)
      // Inside the app's web view the sheet is the whole screen: no site header or footer.
      await expect(page.getByRole('banner')).toHaveCount(0)
      await expect(page.getByRole('contentinfo')).toHaveCount(0)
    })
  }

  // In a phone's ordinary browser no app takes keepsake://store: Close must still close.
  test('Close in an ordinary browser (no app to take the deep link) goes to the store page', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/loop/modal/holidays')
    await waitForHydration(page)
    await page.getByRole('link', { name: 'Close' }).click()
    await expect(page).toHaveURL(/\/loop\/store\/?$/, { timeout: 10_000 })
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  })

  test('a full campaign page has no Close and explains how it works', async ({ page }) => {
    await page.goto('/loop/grandparents-day')
    await expect(page.locator('main')).toHaveAttribute('data-presentation', 'page')
    await expect(page.getByRole('link', { name: 'Close' })).toHaveCount(0)
    await expect(page.locator('#how-it-works')).toBeVisible()
    await expect(page.getByRole('banner')).toHaveCount(1)
    await expect(page.getByRole('contentinfo')).toHaveCount(1)
  })

  test('mothers-day-b is the B side of the same experiment as mothers-day, with its own copy and shape', async ({ page }) => {
    await page.goto('/loop/mothers-day')
    const a = page.locator('main')
    await expect(a).toHaveAttribute('data-experiment', 'mothers-day-2026')
    await expect(a).toHaveAttribute('data-experiment-variant', 'a')
    const headingA = await page.getByRole('heading', { level: 1 }).textContent()
    await expect(page).toHaveTitle('Mother’s Day photo ornaments — Keepsake')

    await page.goto('/loop/mothers-day-b')
    const b = page.locator('main')
    await expect(b).toHaveAttribute('data-experiment', 'mothers-day-2026')
    await expect(b).toHaveAttribute('data-experiment-variant', 'b')
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(headingA!)
    await expect(page).toHaveTitle('Thank Mum with your photos — Keepsake')
  })
})

test.describe('coming soon (smokescreens)', () => {
  test('“Notify me” thanks a new sign-up, and says so when the shopper is already on the list', async ({ page }) => {
    const email = uniqueEmail('waitlist')
    await page.goto('/loop/store/')
    await waitForHydration(page)
    await expect(page.getByRole('region', { name: 'Coming soon' }).locator('li[data-product]')).toHaveCount(5)

    let dialog = await openSmokescreen(page, 'Notify me about the photo calendar', 'Tell me when the photo calendar is ready')
    await dialog.getByLabel('Your name').fill('Ada Lovelace')
    await dialog.getByLabel('E-mail').fill(email)
    await dialog.getByLabel(/Anything we should know/).fill('For the grandparents')
    await dialog.getByRole('button', { name: 'Notify me' }).click()
    const thanks = dialog.getByTestId('smokescreen-thanks')
    await expect(thanks.getByRole('heading')).toHaveText('You’re on the list')
    await expect(thanks).toContainText(email)
    await thanks.getByRole('button', { name: 'Done' }).click()
    await expect(dialog).toBeHidden()

    dialog = await openSmokescreen(page, 'Notify me about the photo calendar', 'Tell me when the photo calendar is ready')
    await dialog.getByLabel('Your name').fill('Ada Lovelace')
    await dialog.getByLabel('E-mail').fill(email.toUpperCase())
    await dialog.getByRole('button', { name: 'Notify me' }).click()
    await expect(dialog.getByTestId('smokescreen-thanks').getByRole('heading')).toHaveText('You’re already on the list')
  })

  test('a free-text field takes no more than its limit, so no "at most" refusal can follow', async ({ page }) => {
    await page.goto('/loop/grandparents-day')
    await waitForHydration(page)
    const dialog = await openSmokescreen(page, 'Deliver to me: canvas print', 'Deliver a canvas print to me')
    const long = 'x'.repeat(2000)
    for (const [label, limit] of [
      ['Full name', 100],
      ['Address line 1', 200],
      ['City', 100],
    ] as const) {
      await dialog.getByLabel(label).fill(long)
      expect((await dialog.getByLabel(label).inputValue()).length).toBe(limit)
    }
  })

  test('the API’s refusals show inline beside their fields, and a corrected form goes through', async ({ page }) => {
    await page.goto('/loop/grandparents-day')
    await waitForHydration(page)
    const dialog = await openSmokescreen(page, 'Deliver to me: canvas print', 'Deliver a canvas print to me')
    await dialog.getByLabel('Full name').fill('Grace Hopper')
    await dialog.getByLabel('E-mail').fill('grace@')
    await dialog.getByLabel('Address line 1').fill('1 Main St')
    await dialog.getByLabel('City').fill('Albany')
    await dialog.getByLabel('State').selectOption('NY')
    await dialog.getByLabel('ZIP code').fill('1220')
    await dialog.getByRole('button', { name: 'Count me in' }).click()

    await expect(dialog.getByTestId('smokescreen-problem')).toHaveText('Please check the highlighted fields.')
    await expect(dialog.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog.getByLabel('E-mail')).toHaveAccessibleDescription(/That doesn’t look like an e-mail address/)
    await expect(dialog.getByLabel('ZIP code')).toHaveAttribute('aria-invalid', 'true')
    await expect(dialog.getByText('ZIP code must be 5 digits (or ZIP+4)')).toBeVisible()
    await expect(dialog.getByLabel('E-mail')).toBeFocused()
    await expect(dialog.getByTestId('smokescreen-thanks')).toHaveCount(0)

    await dialog.getByLabel('E-mail').fill(uniqueEmail('grace'))
    await dialog.getByLabel('ZIP code').fill('12207')
    await dialog.getByRole('button', { name: 'Count me in' }).click()
    await expect(dialog.getByTestId('smokescreen-thanks').getByRole('heading')).toHaveText('Thanks — you’re counted in')
    await expect(dialog.getByTestId('field-error')).toHaveCount(0)
  })
})

test.describe('accessibility', () => {
  for (const path of loopPages) {
    test(`${path} passes axe, signed out and signed in`, async ({ page, login }) => {
      test.slow()
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      await expectNoAxeViolations(page)
      await login()
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      if (path !== '/loop') await expect(page.getByRole('link', { name: /^Start a .+ ornament with / }).first()).toBeVisible()
      await expectNoAxeViolations(page)
    })
  }

  test('a smokescreen form, open and showing errors, passes axe on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/loop/modal/holidays')
    await waitForHydration(page)
    await expectNoAxeViolations(page)
    const dialog = await openSmokescreen(page, 'Notify me about the photo mug', 'Tell me when the photo mug is ready')
    await dialog.getByRole('button', { name: 'Notify me' }).click()
    await expect(dialog.getByText('Enter your name')).toBeVisible()
    await expectNoAxeViolations(page)
  })
})
