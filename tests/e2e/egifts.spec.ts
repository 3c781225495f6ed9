import AxeBuilder from '@axe-core/playwright'
import { type Page } from '@playwright/test'
import { designStarAndAddToCart, expectNoAxeViolations, sentAnalytics, sentEvent, urlOf, waitForHydration } from './support'
import { expect, test } from './fixtures'
import { consentGranted } from '../../playwright.config'

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const CODE = /KEEP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/

/** Waits out any toast (they fade in and out, which axe would measure mid-fade). */
async function toastsGone(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 })
}

test.describe('e-gifts', () => {
  test.describe.configure({ timeout: 300_000 })

  test('a shopper sends Gran $25; a new family redeems the e-mailed code and the cart takes it off', async ({ browser, page, login }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    // The outbox lists the e-mails of the sender's own gifts: a new sender's holds this gift's alone.
    const gran = 'gran@example.com'
    const sender = await login()
    const senderName = sender.firstName
    const message = 'Make something for the tree!'
    const senderSent = sentAnalytics(page)

    await test.step('the sender fills in the form; a custom $5 is refused at its field', async () => {
      await page.goto('/egifts')
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Give the gift of their own photos')
      await expect(page.getByLabel('Your name')).toHaveValue(senderName)
      await toastsGone(page)
      await expectNoAxeViolations(page)

      await page.getByRole('radio', { name: 'Other amount' }).check()
      const amount = page.getByLabel('Your amount, in whole dollars')
      await amount.fill('15')
      await page.getByLabel('Their name').fill('Gran')
      await page.getByLabel('Their e-mail address').fill(gran)
      await page.getByLabel(/^A message/).fill(message)
      await expect(page.getByTestId('message-count')).toHaveText(`${message.length} of 300 characters`)
      const preview = page.getByTestId('egift-preview').filter({ visible: true })
      await expect(preview.getByTestId('egift-preview-amount')).toHaveText('$15')
      await expect(preview.getByTestId('egift-preview-message')).toHaveText(`“${message}”`)

      // Typed or pasted cents are refused, never dropped with the point (12.50 must not become $125, nor 25.00 $250).
      for (const typed of ['12.5', '12.50']) {
        await amount.fill(typed)
        await expect(page.getByRole('button', { name: 'Continue to payment' })).toBeVisible()
        await page.getByRole('button', { name: 'Continue to payment' }).click()
        await expect(page.getByTestId('field-error')).toHaveText(/Gift amounts are whole dollars: enter \$12 or \$13, without cents\./)
        await expect(amount).toBeFocused()
        await expect(amount).toHaveValue(typed)
        await expect(page).toHaveURL(/\/egifts$/)
      }
      await amount.fill('25.00')
      await expect(preview.getByTestId('egift-preview-amount')).toHaveText('$25')
      await expect(page.getByRole('button', { name: 'Continue to pay $25' })).toBeVisible()
      // Issue 32: an amount outside $10–$500 is never shown as the gift's amount nor as the price to pay.
      for (const typed of ['5', '0', '501']) {
        await amount.fill(typed)
        await expect(preview.getByTestId('egift-preview-amount'), typed).toHaveText('$—')
        await expect(page.getByRole('button', { name: /^Continue to pay \$/ }), typed).toHaveCount(0)
        await page.getByRole('button', { name: 'Continue to payment' }).click()
        await expect(page.getByTestId('field-error'), typed).toContainText('Choose an amount from $10 to $500')
        await expect(amount).toBeFocused()
        await expect(amount).toHaveAttribute('aria-invalid', 'true')
        await expect(page).toHaveURL(/\/egifts$/)
      }
      await expectNoAxeViolations(page)
    })

    let checkoutUrl = ''
    await test.step('picks $25 and pays on the local checkout, which asks for no address', async () => {
      await page.getByRole('radio', { name: '$25' }).check()
      await expect(page.getByTestId('field-error')).toHaveCount(0)
      await page.getByRole('button', { name: 'Continue to pay $25' }).click()
      await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`), { timeout: 30_000 })
      checkoutUrl = page.url()
      await waitForHydration(page)
      await expect(page.getByTestId('checkout-total')).toHaveText('$25.00')
      await expect(page.getByTestId('egift-line')).toContainText('Keepsake e-gift for Gran')
      await expect(page.getByTestId('egift-line')).toContainText('nothing to ship')
      for (const label of ['Full name', 'Address line 1', 'City', 'ZIP code']) await expect(page.getByLabel(label)).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Cancel and return to e-gifts' })).toHaveAttribute('href', new RegExp(`^/egifts\\?cancelled=${UUID}$`))
      await expectNoAxeViolations(page)
      await page.getByLabel('Card number').fill('4242 4242 4242 4242')
      await page.getByRole('button', { name: 'Pay $25.00' }).click()
    })

    await test.step('the return page thanks the sender, and follows the e-mail going out', async () => {
      await expect(page).toHaveURL(new RegExp(`/egifts/complete\\?gift=${UUID}$`), { timeout: 30_000 })
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Thank you, ${senderName}!`)
      await expect(page.getByTestId('egift-summary')).toHaveText(
        new RegExp(`^Your \\$25 gift to Gran is paid\\. We(’ll e-mail|’ve e-mailed) it to ${gran.replace(/\./g, '\\.')}( today)?\\.$`),
      )
      await expect(page.getByTestId('egift-delivery')).toContainText(`E-mailed to ${gran}`, { timeout: 20_000 })
      // The e-gift analytics events, with their properties.
      const giftId = new URL(page.url()).searchParams.get('gift')!
      expect((await sentEvent(senderSent, 'DidViewEgift')).path).toBe('/egifts')
      expect((await sentEvent(senderSent, 'DidPurchaseEgift')).properties).toEqual({ amountCents: 2500, egiftId: giftId, scheduled: false })
      await waitForHydration(page)
      await expectNoAxeViolations(page)
      // The paid checkout's page, opened again, sends the shopper to the gift's return page.
      await page.goto(checkoutUrl)
      await expect(page).toHaveURL(new RegExp(`/egifts/complete\\?gift=${UUID}$`))
    })

    let code = ''
    let redeemLink = ''
    await test.step('the outbox holds Gran’s e-mail, sent, with the code and its link', async () => {
      await page.goto('/utils/outbox')
      await waitForHydration(page)
      await expect(page.getByTestId('outbox-email')).toHaveCount(1)
      const email = page.getByTestId('outbox-email').filter({ hasText: gran })
      await expect(email).toHaveCount(1)
      await expect(email.getByTestId('outbox-subject')).toHaveText(`${senderName} sent you a $25.00 Keepsake e-gift`)
      await expect(email.getByTestId('outbox-status')).toHaveText('Sent', { timeout: 15_000 })
      await expectNoAxeViolations(page)
      await email.locator('summary').click()
      const text = (await email.getByTestId('outbox-text').textContent())!
      expect(text).toContain(message)
      code = text.match(CODE)![0]
      redeemLink = text.match(/Redeem it here: (\S+)/)![1]!
      expect(redeemLink).toBe(urlOf('main', `/egifts/redeem?code=${code}`))
      const html = email.locator('iframe')
      await expect(html).toHaveAttribute('sandbox', '')
      await expect(html).toHaveAttribute('title', `HTML version of “${senderName} sent you a $25.00 Keepsake e-gift”`)
      await expect(page.frameLocator(`[data-testid="outbox-email"]:has-text("${gran}") iframe`).getByText(code)).toBeVisible()
      // axe cannot run inside a frame sandboxed without scripts (that is the point of it): the page around it is checked.
      const results = await new AxeBuilder({ page }).exclude('iframe[sandbox]').analyze()
      expect(results.violations.map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    })

    const friendContext = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: consentGranted })
    const friend = await friendContext.newPage()
    const friendSent = sentAnalytics(friend)
    await test.step('Gran opens the link, signs in as a new family and comes back with the code filled in', async () => {
      await friend.goto(redeemLink)
      await waitForHydration(friend)
      await expect(friend.getByTestId('egift-redeem-signed-out')).toBeVisible()
      await expectNoAxeViolations(friend)
      await friend.getByTestId('egift-redeem-signed-out').getByRole('link', { name: 'Sign in' }).click()
      await expect(friend).toHaveURL(/\/utils\/demo-sign-in\?redirect=/)
      await friend.getByRole('button', { name: 'Sign in as a new family' }).click()
      await expect(friend).toHaveURL(new RegExp(`/egifts/redeem\\?code=${code}$`))
      await expect(friend.getByLabel('Gift code')).toHaveValue(code)
      await toastsGone(friend)
      await expectNoAxeViolations(friend)
    })

    await test.step('redeems it: $25 from the sender, with their message', async () => {
      await friend.getByRole('button', { name: 'Redeem my gift' }).click()
      const heading = friend.getByRole('heading', { name: `You’ve got $25 from ${senderName}` })
      await expect(heading).toBeFocused()
      await expect(friend.getByTestId('egift-redeemed-message')).toContainText(message)
      await expect(friend.getByTestId('egift-balance')).toHaveText('$25.00')
      expect((await sentEvent(friendSent, 'DidRedeemEgift')).properties).toEqual({ amountCents: 2500 })
      await expect(friend.getByRole('link', { name: 'Make an ornament' })).toHaveAttribute('href', '/photo-products')
      // axe reads a toast's colours mid-fade as low contrast: check the page once any toast has gone.
      await toastsGone(friend)
      await expectNoAxeViolations(friend)
    })

    await test.step('designs a star ornament; the cart takes the credit off', async () => {
      await designStarAndAddToCart(friend)
      const selected = await sentEvent(friendSent, 'DidSelectPodTemplate')
      expect(selected.properties).toEqual({ variantId: 72965, pseudoTemplateId: expect.any(String), source: 'page' })
      const previewed = await sentEvent(friendSent, 'PodPreviewSuccess')
      expect(previewed.properties).toEqual({
        variantId: 72965,
        pseudoTemplateId: selected.properties.pseudoTemplateId,
        backSideId: expect.any(String),
        previewId: expect.any(String),
      })
      // Store credit pays for ornaments, not shipping: the $25 covers the $24.99 star, and the cent stays in the balance.
      await expect(friend.getByRole('region', { name: 'Order summary' }).getByTestId('credits')).toHaveText('−$24.99')
      // Issue 32: and the cart says so, beside the credit.
      await expect(friend.getByRole('region', { name: 'Order summary' }).getByTestId('credits-detail')).toHaveText(
        'Store credit pays for ornaments, not shipping or tax',
      )
    })

    await test.step('the same code again is refused: already redeemed', async () => {
      await friend.goto(`/egifts/redeem?code=${code.toLowerCase()}`)
      await waitForHydration(friend)
      await friend.getByRole('button', { name: 'Redeem my gift' }).click()
      await expect(friend.getByTestId('egift-refusal')).toContainText('already redeemed')
      await expect(friend.getByLabel('Gift code')).toBeFocused()
      await expect(friend.getByTestId('egift-refusal').getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/)
      await expectNoAxeViolations(friend)
    })
    // Gran redeemed as an account of her own, not as the sender.
    expect(((await (await friend.request.get('/v1/growth/authenticate-session')).json()) as { user: { id: string } }).user.id).not.toBe(sender.id)
    await friendContext.close()

    await test.step('the sender’s list shows the gift redeemed', async () => {
      await page.goto('/egifts')
      await waitForHydration(page)
      const row = page.getByTestId('sent-gift').filter({ hasText: gran })
      await expect(row.getByRole('heading')).toHaveText('$25 to Gran')
      await expect(row.getByTestId('egift-status')).toHaveAttribute('data-status', 'redeemed')
    })
  })

  test('an unknown code shows the API’s reason and the way to support; a malformed one is pointed out at its field', async ({ page, login }) => {
    await login()
    await page.goto('/egifts/redeem')
    await waitForHydration(page)
    const input = page.getByLabel('Gift code')
    await input.fill('keep-0000-0000-0000')
    await expect(input).toHaveValue('KEEP-0000-0000-0000')
    await page.getByRole('button', { name: 'Redeem my gift' }).click()
    const refusal = page.getByTestId('egift-refusal')
    await expect(refusal).toContainText('We couldn’t redeem this code')
    await expect(refusal).toContainText(/don’t recognise this gift code/)
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    await expectNoAxeViolations(page)

    await input.fill('hello')
    await page.getByRole('button', { name: 'Redeem my gift' }).click()
    await expect(page.getByTestId('field-error')).toContainText('A gift code looks like KEEP-7KQ3-XP9D-2M4R')
    await expect(refusal).toHaveCount(0)
  })

  test('signed out, /egifts explains e-gifts and offers sign in that comes back; a cancelled payment is acknowledged', async ({ page, login }) => {
    await page.goto('/egifts')
    await waitForHydration(page)
    const prompt = page.getByTestId('egift-signed-out')
    await expect(prompt).toContainText('Sign in to send an e-gift')
    await expect(prompt.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/utils/demo-sign-in?redirect=%2Fegifts')
    await expect(page.getByRole('form', { name: 'Your gift' })).toHaveCount(0)
    await expectNoAxeViolations(page)

    await page.goto('/egifts/redeem?code=KEEP-7KQ3-XP9D-2M4R')
    await expect(page.getByTestId('egift-redeem-signed-out').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/utils/demo-sign-in?redirect=${encodeURIComponent('/egifts/redeem?code=KEEP-7KQ3-XP9D-2M4R')}`,
    )

    await login()
    await page.goto('/egifts?cancelled=00000000-0000-4000-8000-000000000000')
    await waitForHydration(page)
    await expect(page.getByTestId('egift-cancelled')).toContainText('Payment cancelled — nothing was charged.')
    await page.getByRole('button', { name: 'Dismiss this message' }).click()
    await expect(page.getByTestId('egift-cancelled')).toHaveCount(0)
    await expect(page).toHaveURL(/\/egifts$/)
  })

  test('a uuid in the campaign link identifies the session: DidIdentifySession, and DidViewEgift carries it (SPEC.md §7)', async ({ page }) => {
    const sent = sentAnalytics(page)
    const uuid = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'
    await page.goto(`/egifts?market=us&uuid=${uuid}`)
    await waitForHydration(page)
    expect((await sentEvent(sent, 'DidIdentifySession')).properties).toEqual({ uuid })
    const viewed = await sentEvent(sent, 'DidViewEgift')
    expect(viewed).toMatchObject({ uuid, path: '/egifts', properties: {} })
  })

  test('the return page for a gift that is not the shopper’s says so', async ({ page, login }) => {
    await login()
    await page.goto('/egifts/complete?gift=00000000-0000-4000-8000-000000000000')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We can’t find this gift')
    await waitForHydration(page)
    await expectNoAxeViolations(page)
  })

  test('back before paying: the return page keeps checking for 30 s, then offers to finish paying', async ({ page, login }) => {
    await login()
    await page.goto('/egifts')
    await waitForHydration(page)
    await page.getByRole('radio', { name: '$50' }).check()
    await page.getByLabel('Their name').fill('Uncle Joe')
    await page.getByLabel('Their e-mail address').fill(`joe.${Date.now()}@example.com`)
    await page.getByRole('button', { name: 'Continue to pay $50' }).click()
    await expect(page).toHaveURL(new RegExp(`/utils/checkout/${UUID}$`), { timeout: 30_000 })
    const checkoutUrl = page.url()
    const cancelHref = await page.getByRole('link', { name: 'Cancel and return to e-gifts' }).getAttribute('href')
    const giftId = new RegExp(`cancelled=(${UUID})`).exec(cancelHref ?? '')![1]

    // The page's clock is ours from here, so 30 s pass when the test says so.
    await page.clock.install()
    await page.goto(`/egifts/complete?gift=${giftId}`)
    await waitForHydration(page)
    await expect(page.getByTestId('egift-complete-confirming')).toContainText('Confirming your payment…')
    // Still checking well inside the 30 s.
    await page.clock.fastForward('00:20')
    await expect(page.getByTestId('egift-complete-confirming')).toBeVisible()
    await expect(page.getByTestId('egift-complete-open')).toHaveCount(0)
    await page.clock.fastForward('00:11')
    const open = page.getByTestId('egift-complete-open')
    await expect(open.getByRole('heading', { level: 1 })).toHaveText('We haven’t received your payment')
    await expect(open).toContainText('Nothing has been charged yet. Your $50 gift to Uncle Joe will be e-mailed once it’s paid.')
    await expectNoAxeViolations(page)
    // Root-relative, as every link of ours to our own pages.
    await expect(open.getByRole('link', { name: 'Finish paying' })).toHaveAttribute('href', new URL(checkoutUrl).pathname)
  })

  // The outbox never shows a gift e-mail, with its live code, to anyone.
  test('signed out, the outbox shows no e-mail and asks to sign in', async ({ page }) => {
    await page.goto('/utils/outbox')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { name: 'Sign in to see your e-mails' })).toBeVisible()
    await expect(page.getByTestId('outbox-email')).toHaveCount(0)
    expect(((await (await page.request.get('/v1/demo/outbox')).json()) as { emails: unknown[] }).emails).toEqual([])
    await expectNoAxeViolations(page)
  })

  test('the outbox is absent when demo mode is off', async ({ page }) => {
    const res = await page.goto(urlOf('demoOff', '/utils/outbox'))
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404')
  })
})

test.describe('buying an e-gift at desktop width', () => {
  test.describe.configure({ timeout: 120_000 })

  test('the preview sits beside the form, and a scheduled gift says when it goes', async ({ page, login }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await login()
    await page.goto('/egifts')
    await waitForHydration(page)
    await page.getByRole('radio', { name: '$100' }).check()
    await page.getByLabel('Their name').fill('Grandpa Joe')
    await page.getByLabel('Their e-mail address').fill(`joe.${Date.now()}@example.com`)
    await page.getByRole('radio', { name: 'Send on a day I choose' }).check()
    const day = page.getByLabel('Send on', { exact: true })
    const min = (await day.getAttribute('min'))!
    const max = (await day.getAttribute('max'))!
    expect(min).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect((Date.parse(max) - Date.parse(min)) / 86_400_000).toBe(365)
    const preview = page.getByTestId('egift-preview').filter({ visible: true })
    await expect(preview.getByTestId('egift-preview-amount')).toHaveText('$100')
    const form = await page.getByRole('form', { name: 'Your gift' }).boundingBox()
    const box = await preview.boundingBox()
    expect(box!.x).toBeGreaterThan(form!.x + form!.width - 1)
    await expect(preview).toContainText('Dear Grandpa Joe,')
    await expectNoAxeViolations(page)
  })
})
