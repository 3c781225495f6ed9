import { expect, test, type Page } from '@playwright/test'
import { serverSecrets } from '../../playwright.config'
import { expectNoAxeViolations, responseBodies, urlOf, waitForHydration } from './support'

const tools = (page: Page) => page.getByRole('region', { name: 'Tools' })

test.describe('/utils, the help and tools index', () => {
  test('lists the shopper’s pages and the team’s tools, demo ones included in demo mode', async ({ page }) => {
    await page.goto('/utils')
    await expect(page.getByRole('region', { name: 'Your account' }).getByRole('link')).toHaveText([/Your cart/, /Your orders/, /Your session/, /Terms of use/])
    await expect(tools(page).getByRole('link', { name: /Demo sign-in/ })).toHaveAttribute('href', '/utils/demo-sign-in')
    await expect(tools(page).getByRole('link', { name: /Outbox/ })).toHaveAttribute('href', '/utils/outbox')
    await expect(tools(page).getByRole('link', { name: /Smokescreen report/ })).toHaveAttribute('href', '/utils/smokescreens')
    await expect(tools(page).getByRole('link', { name: /Engine status/ })).toHaveAttribute('href', '/utils/status')
    await expect(tools(page).getByRole('link', { name: /Preview render check/ })).toHaveAttribute('href', '/utils/render-check')
    // Local checkout has no page of its own to open: it is explained, not linked.
    await expect(tools(page).getByTestId('tool-note')).toContainText('Local checkout')
    await expect(tools(page).getByTestId('tool-note')).toContainText('opens Keepsake’s own test-card page')
    await expectNoAxeViolations(page)
  })

  test('with demo mode off, the demo-only tools are gone from the index and their pages are absent', async ({ page }) => {
    await page.goto(urlOf('demoOff', '/utils'))
    await expect(tools(page).getByRole('link', { name: /Engine status/ })).toBeVisible()
    for (const name of [/Demo sign-in/, /Outbox/, /Smokescreen report/]) await expect(page.getByRole('link', { name })).toHaveCount(0)
    const res = await page.goto(urlOf('demoOff', '/utils/smokescreens'))
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('404')
    await page.goto(urlOf('demoOff', '/utils/status'))
    await expect(page.getByTestId('switch-demo')).toContainText('Off')
  })
})

test.describe('/utils/status', () => {
  test('names each engine, embedded here, with a plain explanation and the version', async ({ page }) => {
    await page.goto('/utils/status')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Engine status')
    const expected = {
      database: 'PGlite',
      storage: 'Local disk',
      print: 'Local',
      payments: 'Local checkout',
      analytics: 'Off',
      'rate-limits': 'In-process',
      email: 'Outbox only',
    }
    for (const [id, name] of Object.entries(expected)) {
      const row = page.getByTestId(`engine-${id}`)
      await expect(row.getByTestId('engine-name')).toHaveText(name)
      await expect(row).toContainText('Embedded')
    }
    await expect(page.getByTestId('switch-demo')).toContainText('On')
    await expect(page.getByTestId('switch-maintenance')).toContainText('Off')
    await expect(page.getByTestId('app-version')).toContainText(/Keepsake version \d+\.\d+\.\d+/)
    await expectNoAxeViolations(page)
  })

  test('never reveals a server secret, in the page or what its scripts fetch', async ({ page, request }) => {
    const status = await (await request.get('/utils/status')).text()
    const received = responseBodies(page)
    await page.goto('/utils')
    await waitForHydration(page)
    // Client-side navigation fetches the summary through the server function.
    await page.getByRole('link', { name: /Engine status/ }).click()
    await expect(page.getByTestId('engine-database')).toBeVisible()
    await page.waitForLoadState('networkidle')
    const bodies = [status, ...(await received.all()).map((r) => r.body)]
    expect(bodies.some((b) => b.includes('PGlite'))).toBe(true)
    for (const secret of Object.values(serverSecrets)) {
      expect(bodies.some((b) => b.includes(secret))).toBe(false)
    }
  })
})

test.describe('/utils/smokescreens, the team’s report', () => {
  test('counts a new sign-up against its product', async ({ page }) => {
    await page.goto('/utils/smokescreens')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Smokescreen report')
    const mug = page.getByRole('table', { name: 'Sign-ups per product, most wanted first' }).locator('tr[data-product="photo-mug"]')
    const before = Number(await mug.getByTestId('waitlist-count').textContent())

    // Signed out, through the API as the form would send it.
    const res = await page.request.post('/v1/smokescreens/waitlist', {
      data: { product: 'photo-mug', sourcePage: '/loop/store/', name: 'Report Reader', email: `report-${Date.now()}@example.com`, note: '' },
      headers: { origin: urlOf('main', '') },
    })
    expect(res.status()).toBe(201)

    await page.reload()
    await expect(mug.getByTestId('waitlist-count')).toHaveText(String(before + 1))
    await expect(mug.getByTestId('total-count')).toHaveText(String(Number(await mug.getByTestId('delivery-count').textContent()) + before + 1))
    // Most wanted first: no product below the mug has more sign-ups.
    const totals = (await page.getByTestId('total-count').allTextContents()).map(Number)
    expect(totals).toEqual([...totals].sort((a, b) => b - a))
    await expectNoAxeViolations(page)
  })
})
