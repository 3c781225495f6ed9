import { expect, test, type Page } from '@playwright/test'
import { shootBothWidths, urlOf, waitForHydration } from './support'

/**
 * Every sign-in prompt offers "E-mail me a sign-in link" (coming back to the page), "Open in
 * the app" on a phone, and demo sign-in only in demo mode. Generated over the prompts of the referral,
 * e-gift, cart, designer, orders, saved designs and shared design pages, on the store with demo mode off and on.
 */
/** `open` is what the page needs done to show the prompt; a prompt that needs it lives on a page that starts the WebGL preview. */
type Prompt = { area: string; path: string; testId: string; open?: (page: Page) => Promise<void> }

const prompts: Prompt[] = [
  { area: 'referral', path: '/referral/redeem', testId: 'redeem-signed-out' },
  { area: 'e-gifts', path: '/egifts', testId: 'egift-signed-out' },
  { area: 'e-gift redeem', path: '/egifts/redeem?code=KEEP-7KQ3-XP9D-2M4R', testId: 'egift-redeem-signed-out' },
  { area: 'cart', path: '/photo-products/cart', testId: 'cart-signed-out' },
  { area: 'orders', path: '/photo-products/orders', testId: 'orders-signed-out' },
  { area: 'designs', path: '/photo-products/designs', testId: 'designs-signed-out' },
  // A family's share link: signed out, any well-formed token asks to sign in first (membership is checked after).
  { area: 'shared design', path: '/photo-products/shared/AAAAAAAAAAAAAAAAAAAAAA', testId: 'shared-design-signed-out' },
  {
    area: 'designer',
    path: '/photo-products/ornaments/72965',
    testId: 'picker-signed-out',
    open: async (page) => {
      // The designer starts pixi (WebGL in software here) as it opens, which keeps the page too busy to take a
      // click; its preview saying it is ready is the state a shopper's click needs.
      await expect(page.getByTestId('preview-stage')).toHaveAttribute('data-state', 'ready', { timeout: 0 })
      await page.getByRole('button', { name: /^Choose photo for the left ornament$/ }).click()
    },
  },
  { area: 'campaign photos', path: '/loop/mothers-day', testId: 'campaign-photos-signed-out' },
]

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148'

async function openPrompt(page: Page, server: 'main' | 'demoOff', prompt: Prompt) {
  // Starting pixi in SwiftShader on a busy 2-core machine takes tens of seconds (as in designer.spec.ts).
  if (prompt.open) test.slow()
  await page.goto(urlOf(server, prompt.path))
  await waitForHydration(page)
  await prompt.open?.(page)
  const panel = page.getByTestId(prompt.testId)
  // Some prompts live in a lazily loaded part of the page (the designer's photo picker): a busy machine takes a while.
  await expect(panel).toBeVisible({ timeout: 15_000 })
  return panel
}

for (const prompt of prompts) {
  test(`the ${prompt.area} prompt, demo mode off: the e-mailed link coming back here, no demo sign-in, no app button on a computer`, async ({ page }) => {
    const panel = await openPrompt(page, 'demoOff', prompt)
    const here = new URL(page.url()).pathname + new URL(page.url()).search
    await expect(panel.getByRole('link', { name: 'E-mail me a sign-in link' })).toHaveAttribute('href', `/auth/sign-in?redirect=${encodeURIComponent(here)}`)
    await expect(panel.locator('a[href^="/utils/demo-sign-in"]')).toHaveCount(0)
    await expect(panel.getByRole('link', { name: 'Open in the app' })).toHaveCount(0)
  })

  test(`the ${prompt.area} prompt on a phone offers Open in the app`, async ({ browser }) => {
    const context = await browser.newContext({ userAgent: PHONE, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    const panel = await openPrompt(page, 'demoOff', prompt)
    await expect(panel.getByRole('link', { name: 'Open in the app' })).toHaveText('Open in the app')
    // Issue 32: the app at this page (its store tab, ?path=), not the generic download link.
    const here = new URL(page.url()).pathname + new URL(page.url()).search
    await expect(panel.getByRole('link', { name: 'Open in the app' })).toHaveAttribute('href', `keepsake://store?path=${encodeURIComponent(here)}`)
    await expect(panel.getByRole('link', { name: 'E-mail me a sign-in link' })).toBeVisible()
    await shootBothWidths(page, `prompt-${prompt.area.replaceAll(' ', '-')}`, 'sign-in')
    await context.close()
  })

  test(`the ${prompt.area} prompt in demo mode keeps demo sign-in beside the e-mailed link`, async ({ page }) => {
    const panel = await openPrompt(page, 'main', prompt)
    await expect(panel.locator('a[href^="/utils/demo-sign-in"]')).toHaveCount(1)
    await expect(panel.getByRole('link', { name: 'E-mail me a sign-in link' })).toBeVisible()
  })
}

test('a refusal met while signed out offers Sign in to the e-mailed link when demo mode is off', async ({ page }) => {
  await page.goto(urlOf('demoOff', '/referral'))
  await waitForHydration(page)
  await expect(page.getByRole('link', { name: 'Sign in to get your link' })).toHaveAttribute('href', '/auth/sign-in?redirect=%2Freferral')
})

test('the header offers Sign in coming back to the page, and the sign-in page has no demo families with demo mode off', async ({ page }) => {
  await page.goto(urlOf('demoOff', '/egifts'))
  await waitForHydration(page)
  await page.getByRole('banner').getByRole('link', { name: 'Sign in', exact: true }).click()
  await expect(page).toHaveURL(urlOf('demoOff', '/auth/sign-in?redirect=%2Fegifts'))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Keepsake')
  await expect(page.getByRole('link', { name: /demo family/ })).toHaveCount(0)
})

test('the sign-in page says what is wrong with an address at its field, and sends nothing', async ({ page }) => {
  await page.goto(urlOf('demoOff', '/auth/sign-in'))
  await waitForHydration(page)
  const send = page.getByRole('button', { name: 'E-mail me a sign-in link' })
  await send.click()
  await expect(page.getByTestId('field-error')).toHaveText(/Enter your e-mail address/)
  await expect(page.getByLabel('E-mail address')).toBeFocused()
  await page.getByLabel('E-mail address').fill('grace@')
  await send.click()
  await expect(page.getByTestId('field-error')).toHaveText(/doesn’t look like an e-mail address/)
  await expect(page.getByRole('region', { name: 'Check your e-mail' })).toHaveCount(0)
})

test('a forged or incomplete e-mailed link gets the friendly page with the form, never an error page', async ({ page }) => {
  const forged = 'forged-token-that-was-never-sent'
  for (const [path, words] of [
    [`/auth/link?token=${forged}`, 'not valid'],
    ['/auth/link', 'not complete'],
    [`/auth/link?token=${'t'.repeat(300)}`, 'not complete'],
  ] as const) {
    // A well-formed token is spent from the hydrated page, by a server function call: its answer is the refusal.
    const spent = path.includes(forged)
      ? page.waitForResponse((r) => r.url().includes('/_serverFn/') && Boolean(r.request().postData()?.includes(forged)))
      : null
    const response = await page.goto(urlOf('demoOff', path))
    expect(response!.status()).toBe(200)
    await waitForHydration(page)
    await spent
    await expect(page.getByTestId('sign-in-refused')).toContainText(words)
    await expect(page.getByRole('button', { name: 'E-mail me a sign-in link' })).toBeVisible()
    // The query leaves the address bar once the page has hydrated.
    await expect(page).not.toHaveURL(/token=/)
  }
})

test('Open in the app without the app installed falls back to the download link', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: PHONE, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  // The attribution service is not reachable from here: answer its download page ourselves.
  await page.route('https://keepsake.app.link/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Download</title>' }))
  const panel = await openPrompt(
    page,
    'demoOff',
    prompts.find((p) => p.area === 'cart')!,
  )
  await panel.getByRole('link', { name: 'Open in the app' }).click()
  // Nothing takes keepsake:// in this browser: a moment later the page is still here, and the download link opens.
  await expect(page).toHaveURL('https://keepsake.app.link/download', { timeout: 15_000 })
  await context.close()
})

test('the e-mail’s “See your order” link opened signed out keeps #order-… through sign-in', async ({ page }) => {
  const path = '/photo-products/orders#order-KS-7Q4X-2M'
  // Demo mode off: the e-mailed sign-in link comes back with the fragment.
  await page.goto(urlOf('demoOff', path))
  await waitForHydration(page)
  await expect(page.getByTestId('orders-signed-out').getByRole('link', { name: 'E-mail me a sign-in link' })).toHaveAttribute(
    'href',
    `/auth/sign-in?redirect=${encodeURIComponent(path)}`,
  )
  // Demo mode: signing in as a family lands on the orders page with the fragment still there.
  await page.goto(urlOf('main', path))
  await waitForHydration(page)
  await page.getByTestId('orders-signed-out').locator('a[href^="/utils/demo-sign-in"]').click()
  await waitForHydration(page)
  await page.getByRole('button', { name: 'Sign in as a new family' }).click()
  await expect(page).toHaveURL(urlOf('main', path), { timeout: 30_000 })
})
