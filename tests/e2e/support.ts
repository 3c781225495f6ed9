import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'
import { servers } from '../../playwright.config'

export const urlOf = (server: keyof typeof servers, path = '/') => `http://localhost:${servers[server].port}${path}`

/** Navigates inside the single-page app, as a link click would, without a full page load. */
export async function clientNavigate(page: Page, href: string) {
  await page.evaluate((target) => {
    const router = (window as unknown as { __TSR_ROUTER__: { navigate: (o: { href: string }) => Promise<void> } }).__TSR_ROUTER__
    void router.navigate({ href: target })
  }, href)
}

/** Waits until the app has hydrated, so client navigation and clicks go through the router. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Boolean((window as unknown as { __TSR_ROUTER__?: unknown }).__TSR_ROUTER__))
  await page.waitForLoadState('networkidle')
}

export async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}
