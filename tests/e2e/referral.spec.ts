import { type Page } from '@playwright/test'
import { LOCAL_TEST_CARDS } from '../../app/contract/cart'
import { designStarAndAddToCart, expectNoAxeViolations, urlOf, waitForHydration } from './support'
import { expect, test } from './fixtures'
import { consentGranted } from '../../playwright.config'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const CODE = /^[A-Z]{1,8}-[0-9A-Z]{4}-[0-9A-Z]{4}$/
const MADE_UP_ID = '00000000-0000-4000-8000-000000000000'

/** The signed-in shopper's invite code, as their dashboard shows it. */
async function advocateCodeOf(page: Page) {
  await page.goto('/referral')
  await waitForHydration(page)
  const code = (await page.getByTestId('referral-code').textContent())!.trim()
  expect(code).toMatch(CODE)
  return code
}

/** Waits out any toast (they fade in and out, which axe would measure mid-fade). */
async function toastsGone(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 })
}

/** The signed-in user of this page's browser context, as the API sees it. */
async function signedInFirstName(page: Page) {
  const res = await page.request.get('/v1/growth/authenticate-session')
  return ((await res.json()) as { user: { firstName: string } }).user.firstName
}

test.describe('referrals', () => {
  test.describe.configure({ timeout: 300_000 })

  test('a friend opens the advocate’s copied link, signs in as a new family, claims $10, pays, and the advocate’s reward is approved', async ({
    browser,
    context,
    page,
    baseURL,
    login,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! })
    await page.setViewportSize({ width: 390, height: 844 })

    const advocateName = (await login()).firstName
    let link = ''
    await test.step('the advocate copies their link from the dashboard', async () => {
      await page.goto('/referral')
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Give $10, get $10')
      await expect(page.getByTestId('referral-code')).toHaveText(CODE)
      await expect(page.getByRole('button', { name: 'Open in the Keepsake app' })).toBeVisible()
      await expectNoAxeViolations(page)
      await page.getByRole('button', { name: 'Copy link' }).click()
      await expect(page.getByText('Link copied')).toBeVisible()
      link = await page.evaluate(() => navigator.clipboard.readText())
      expect(link).toBe(await page.getByLabel('Your invite link', { exact: true }).textContent())
      expect(new URL(link).pathname).toMatch(/^\/r\/[A-Z]+-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    })
    const code = new URL(link).pathname.split('/')[2]!

    const friendContext = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: consentGranted })
    const friend = await friendContext.newPage()
    let friendName = ''
    await test.step('the friend opens the link and sees who invited them', async () => {
      await friend.goto(link)
      await expect(friend).toHaveURL(urlOf('main', `/referral/r/${code}`), { timeout: 30_000 })
      await expect(friend.locator('main')).toHaveAttribute('data-referral-variant', 'r')
      await expect(friend.getByRole('heading', { level: 1 })).toContainText(advocateName)
      await expect(friend.getByTestId('invite-offer')).toContainText('You get $10 off')
      await expect(friend.getByTestId('invite-offer')).toContainText(`${advocateName} gets $10 too`)
      // The landing remembered the invite for 30 days in an HttpOnly cookie.
      const cookie = (await friendContext.cookies()).find((c) => c.name === 'keepsake_referral')
      expect(cookie?.value).toBe(code)
      expect(cookie?.httpOnly).toBe(true)
      await waitForHydration(friend)
      await expectNoAxeViolations(friend)
    })

    await test.step('follows sign in, signs in as a new family and lands back on the redeem page', async () => {
      await friend.getByRole('link', { name: 'Sign in to claim $10' }).click()
      await expect(friend).toHaveURL(/\/referral\/redeem\?code=/)
      await expect(friend.getByTestId('redeem-signed-out')).toBeVisible()
      await expectNoAxeViolations(friend)
      await friend.getByTestId('redeem-signed-out').getByRole('link', { name: 'Sign in' }).click()
      await expect(friend).toHaveURL(/\/utils\/demo-sign-in\?redirect=/)
      await expect(friend.getByTestId('sign-in-redirect')).toBeVisible()
      await friend.getByRole('button', { name: 'Sign in as a new family' }).click()
      await expect(friend).toHaveURL(/\/referral\/redeem(\?|$)/)
      await expect(friend.getByRole('heading', { level: 1 })).toHaveText(`${advocateName}’s invite: $10 off your first order`)
      friendName = await signedInFirstName(friend)
      await toastsGone(friend)
      await expectNoAxeViolations(friend)
    })

    await test.step('claims the credit', async () => {
      await friend.getByRole('button', { name: 'Claim my $10' }).click()
      await expect(friend.getByTestId('redeem-success')).toContainText(`$10.00 from ${advocateName} is in your account`)
      // Focus goes to the result, not the top of the page.
      await expect(friend.getByTestId('redeem-success')).toBeFocused()
      await expect(friend.getByRole('heading', { level: 1 })).toHaveText('Your $10 credit is ready')
      await expect(friend.getByTestId('redeem-status')).toHaveText(/Ready to use/)
      await expect(friend.getByTestId('redeem-expiry')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/)
      await expectNoAxeViolations(friend)
      // A reload shows the same redemption.
      await friend.reload()
      await expect(friend.getByRole('region', { name: 'Your welcome credit' })).toContainText(`Welcome credit from ${advocateName}’s invite`)
      await expect(friend.getByRole('link', { name: 'Design an ornament' })).toHaveAttribute('href', '/photo-products')
    })

    await test.step('designs a star ornament; the cart takes the $10 off; pays with the good test card', async () => {
      await designStarAndAddToCart(friend)
      await expect(friend.getByRole('region', { name: 'Order summary' }).getByTestId('credits')).toHaveText('−$10.00')
      await friend.getByTestId('checkout-tray').getByRole('button', { name: 'Checkout' }).click()
      await expect(friend).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`))
      await waitForHydration(friend)
      await friend.getByLabel('Full name').fill(`${friendName} Guest`)
      await friend.getByLabel('Address line 1').fill('8 Juniper Court')
      await friend.getByLabel('City').fill('Boise')
      await friend.getByLabel('State').selectOption('ID')
      await friend.getByLabel('ZIP code').fill('83702')
      await friend.getByLabel('Card number').fill(LOCAL_TEST_CARDS.succeeds)
      await friend.getByRole('button', { name: /^Pay \$/ }).click()
      await expect(friend).toHaveURL(/\/photo-products\/checkout\/complete\?checkout=/, { timeout: 30_000 })
      await expect(friend.getByRole('heading', { level: 1 })).toHaveText(`Thank you, ${friendName}!`, { timeout: 30_000 })
    })
    await friendContext.close()

    await test.step('the advocate reloads their dashboard: the friend’s reward is approved', async () => {
      await page.reload()
      await waitForHydration(page)
      // The advocate is new: this friend's is their only redemption.
      const row = page.getByTestId('redemption')
      await expect(row).toHaveCount(1)
      await expect(row.getByRole('heading', { name: friendName })).toBeVisible()
      await expect(row.getByTestId('reward-status')).toHaveText(/Approved/)
      await expect(row.getByTestId('reward-explanation')).toContainText(/Approved — \$10\.00 credit on [A-Z][a-z]{2} \d{1,2}/)
      await expect(page.getByTestId('credit-pending')).not.toHaveText('$0.00')
      await expectNoAxeViolations(page)

      await row.getByRole('link', { name: `Details of ${friendName}’s reward` }).click()
      await expect(page).toHaveURL(new RegExp(`/referral/advocate/${code}/redemptions/${UUID}$`))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${friendName}’s referral`)
      const timeline = page.getByRole('list', { name: 'Reward progress' })
      await expect(timeline.getByRole('listitem')).toHaveCount(3)
      await expect(timeline.getByRole('listitem').nth(1)).toHaveAttribute('data-state', 'done')
      await expect(timeline.getByRole('listitem').nth(2)).toHaveAttribute('data-state', 'next')
      await expectNoAxeViolations(page)

      await page.getByRole('link', { name: /All your referrals/ }).click()
      await expect(page).toHaveURL(/\/past$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your past referrals')
      await expect(page.getByRole('region', { name: /^On their way/ }).getByRole('heading', { name: friendName })).toBeVisible()
      await expectNoAxeViolations(page)
    })
  })

  test('a shopper cannot redeem their own invite: the API’s reason is shown and the page stays usable', async ({ page, login }) => {
    const { firstName } = await login()
    const code = await advocateCodeOf(page)
    await page.goto(`/r/${code}`)
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(firstName)
    // Issue 32: her own invite offers sharing it, not a claim the API would refuse after the click.
    await expect(page.getByRole('link', { name: 'Claim my $10' })).toHaveCount(0)
    await page.getByRole('link', { name: 'This is your invite: share it' }).click()
    await expect(page).toHaveURL(/\/referral$/)
    // Reached another way (a redeem link typed or kept), the claim is refused with the API's reason.
    await page.goto(`/referral/redeem?code=${code}`)
    await waitForHydration(page)
    const claim = page.getByRole('button', { name: 'Claim my $10' })
    await claim.click()
    const alert = page.getByRole('alert').filter({ hasText: 'own invite' })
    await expect(alert).toContainText('This is your own invite.')
    await expect(claim).toBeEnabled()
    await expectNoAxeViolations(page)
    await alert.getByRole('button', { name: 'Dismiss this message' }).click()
    await expect(page.getByTestId('redeem-refusal')).toHaveCount(0)
  })

  test('an unknown, over-long or malformed invite code shows a friendly page with 404, on each landing variant', async ({ page }) => {
    // 201+ characters get a refusal in shopper words, not a 500 with the zod issue list as the heading.
    for (const [variant, code] of [
      ['refer', 'NOPE-0000-0000'],
      ['r', 'NOPE-0000-0000'],
      ['r0', 'NOPE-0000-0000'],
      ['refer', 'A'.repeat(201)],
      ['r', 'A'.repeat(5000)],
      ['r0', encodeURIComponent('ü<script>"x"')],
    ] as const) {
      const res = await page.goto(`/referral/${variant}/${code}`)
      expect(res?.status()).toBe(404)
      await expect(page.locator('body')).not.toContainText('too_big')
      await expect(page.locator('main')).toHaveAttribute('data-referral-variant', variant)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This invite link isn’t working')
      await expect(page.getByText('Ask your friend to send you a new link')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Browse photo ornaments' })).toHaveAttribute('href', '/photo-products')
    }
    // The legacy share link with an over-long code goes to the same page.
    const legacy = await page.goto(`/r/${'Z'.repeat(201)}`)
    expect(legacy?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This invite link isn’t working')
    await waitForHydration(page)
    await expectNoAxeViolations(page)
  })

  test('a redemption that is not the advocate’s shows a designed not-found; signed out asks to sign in', async ({ page, login }) => {
    await page.goto(`/referral/advocate/MAYA-0000-0000/redemptions/${MADE_UP_ID}`)
    await expect(page.getByRole('heading', { name: 'Sign in to see this referral' })).toBeVisible()
    await expect(page.getByTestId('referral-signed-out').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', /redirect=%2Freferral%2Fadvocate/)

    await login()
    const code = await advocateCodeOf(page)
    for (const path of [
      `/referral/advocate/${code}/redemptions/${MADE_UP_ID}`,
      `/referral/advocate/${code}/redemptions/not-an-id`,
      `/referral/advocate/SOMEONE-0000-0000/redemptions/${MADE_UP_ID}/past`,
      `/referral/advocate/${code}/redemptions/${MADE_UP_ID}/past`,
    ]) {
      const res = await page.goto(path)
      expect(res?.status()).toBe(200)
      await expect(page.getByRole('heading', { name: 'We can’t find this referral' })).toBeVisible()
      await expect(page.getByRole('link', { name: 'See your referrals' })).toHaveAttribute('href', '/referral')
    }
    await waitForHydration(page)
    await expectNoAxeViolations(page)
  })

  test('signed out, /referral explains the programme and offers sign in that comes back', async ({ page }) => {
    await page.goto('/referral')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Share Keepsake, and you both get a gift')
    await expect(page.getByRole('link', { name: 'Sign in to get your link' })).toHaveAttribute('href', '/utils/demo-sign-in?redirect=%2Freferral')
    await expect(page.getByRole('link', { name: 'I have an invite' })).toHaveAttribute('href', '/referral/redeem')
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Sign in to get your link' }).click()
    await page.getByRole('button', { name: 'Sign in as Sam Okafor' }).click()
    await expect(page).toHaveURL(/\/referral$/)
    await expect(page.getByTestId('referral-code')).toHaveText(/^SAM-/)
  })

  test('the redeem page: signed out it offers sign in; signed in without an invite it says to open the link first', async ({ page, login }) => {
    await page.goto('/referral/redeem')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Claim your friend’s gift')
    await expect(page.getByTestId('redeem-signed-out').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/utils/demo-sign-in?redirect=%2Freferral%2Fredeem',
    )
    await expectNoAxeViolations(page)

    await login()
    await page.goto('/referral/redeem')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Open your friend’s invite link first')
    await expect(page.getByTestId('redeem-no-invite')).toBeVisible()
    await expectNoAxeViolations(page)
  })

  test('demo sign-in only follows a redirect to a path on this site', async ({ page }) => {
    for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      await page.goto(`/utils/demo-sign-in?redirect=${encodeURIComponent(target)}`)
      await waitForHydration(page)
      await expect(page.getByTestId('sign-in-redirect')).toHaveCount(0)
      await page.getByRole('button', { name: 'Sign in as Sam Okafor' }).click()
      await expect(page.getByTestId('current-user')).toHaveText('Signed in as Sam Okafor')
      await expect(page).toHaveURL(/\/utils\/demo-sign-in/)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect(page.getByTestId('current-user')).toHaveText('You are not signed in.')
    }
  })
})
