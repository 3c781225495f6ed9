/**
 * The photo picker's tab and place live in the URL (`/photo-products/photos?filter=favorites&cursor=…`),
 * validated with zod: a link opens a family's favourites, Back returns to the tab before, a reload keeps
 * the place, and a bad value falls back to All and the first page instead of an error.
 */
import { type Page } from '@playwright/test'
import { waitForHydration } from './support'
import { expect, test } from './fixtures'

const tab = (page: Page, name: string) => page.getByRole('tab', { name })
const tiles = (page: Page) => page.getByTestId('album-grid').getByRole('button')

async function open(page: Page, href: string) {
  await page.goto(href)
  await waitForHydration(page)
  await expect(tiles(page).first()).toBeVisible()
}

async function expectOnlyFavourites(page: Page) {
  for (const label of await tiles(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) expect(label).toContain('favourite')
}

test.describe('search params on the photo picker', () => {
  test.beforeEach(async ({ login }) => {
    await login()
  })

  test('?filter=favorites opens Favorites; Back returns to it after a tab switch, and a reload keeps it', async ({ page }) => {
    await open(page, '/photo-products/photos?filter=favorites')
    await expect(tab(page, 'Favorites')).toHaveAttribute('aria-selected', 'true')
    await expectOnlyFavourites(page)

    await tab(page, 'Recommended').click()
    await expect(tab(page, 'Recommended')).toHaveAttribute('aria-selected', 'true')
    await expect(page).toHaveURL(/[?&]filter=recommended(&|$)/)
    await expect(tiles(page).first()).toBeVisible()

    await page.goBack()
    await expect(page).toHaveURL(/[?&]filter=favorites(&|$)/)
    await expect(tab(page, 'Favorites')).toHaveAttribute('aria-selected', 'true')
    await expect(tiles(page).first()).toBeVisible()
    await expectOnlyFavourites(page)

    await page.reload()
    await waitForHydration(page)
    await expect(tab(page, 'Favorites')).toHaveAttribute('aria-selected', 'true')
    await expect(tiles(page).first()).toBeVisible()
    await expectOnlyFavourites(page)
  })

  test('a bad filter and cursor fall back to All and the first page, not an error', async ({ page }) => {
    const response = await page.goto('/photo-products/photos?filter=nonsense&cursor=%00')
    expect(response?.status()).toBe(200)
    await waitForHydration(page)
    await expect(tiles(page).first()).toBeVisible()
    await expect(tab(page, 'All')).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByTestId('album-partway')).toHaveCount(0)
    await expect(page.getByText('could not be loaded')).toHaveCount(0)
  })

  test('a well-formed cursor the album refuses falls back to the first page', async ({ page }) => {
    await page.goto('/photo-products/photos?filter=favorites&cursor=bm90LWEtY3Vyc29y.bm90LXNpZ25lZA')
    await waitForHydration(page)
    await expect(tab(page, 'Favorites')).toHaveAttribute('aria-selected', 'true')
    await expect(tiles(page).first()).toBeVisible()
    await expect(page).not.toHaveURL(/cursor=/)
    await expect(page.getByTestId('album-partway')).toHaveCount(0)
  })

  test('loading more puts the place in the URL; a reload opens there, and the newest photos are one tap away', async ({ page }) => {
    await open(page, '/photo-products/photos')
    const firstPage = await tiles(page).count()
    const firstPhoto = await tiles(page).first().getAttribute('data-photo-id')
    // Pressed where it is, without scrolling to it: the picker also loads the next page when its end scrolls into
    // view, and a click that scrolled there raced those loads until the button was gone (the album loaded whole).
    await page.getByRole('button', { name: 'Load more photos' }).dispatchEvent('click')
    await expect.poll(() => tiles(page).count()).toBeGreaterThan(firstPage)
    await expect(page).toHaveURL(/[?&]cursor=[\w-]+\.[\w-]+/)

    await page.reload()
    await waitForHydration(page)
    await expect(page.getByTestId('album-partway')).toBeVisible()
    await expect(tiles(page).first()).toBeVisible()
    expect(await tiles(page).first().getAttribute('data-photo-id')).not.toBe(firstPhoto)
    await expect(page).toHaveURL(/[?&]cursor=/)

    await page.getByRole('button', { name: 'Back to the newest photos' }).click()
    await expect(page).not.toHaveURL(/cursor=/)
    await expect(tiles(page).first()).toHaveAttribute('data-photo-id', firstPhoto!)
    await expect(tab(page, 'All')).toHaveAttribute('aria-selected', 'true')
  })
})
