/**
 * The store's server functions retry the album API as SPEC.md §8 says, proven with the store pointed
 * (API_BASE_URL) at a proxy in front of `npm run start:api` that fails the calls we tell it to.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { freePort, freshStore, killServers, startServer, type ServerProcess, type Store } from '../support/server-process'
import { waitForHydration } from './support'

type Failure = 'unavailable' | 'reset' | 'answer-lost'

/** A proxy that forwards to the API, keeping the Host header, and fails the next N calls of a method and path as told. */
function startFailingProxy(target: string) {
  const plans: { method: string; path: string; left: number; how: Failure }[] = []
  const seen: string[] = []
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname
    seen.push(`${req.method} ${pathname}`)
    const plan = plans.find((p) => p.left > 0 && p.method === req.method && p.path === pathname)
    if (plan) plan.left--
    if (plan?.how === 'unavailable') {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>')
      return
    }
    if (plan?.how === 'reset') {
      req.socket.destroy()
      return
    }
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (plan?.how === 'answer-lost') {
        // The API applied the request; its answer never reaches the store.
        answer.resume()
        answer.on('end', () => req.socket.destroy())
        return
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  return {
    server,
    failNext(method: string, path: string, left: number, how: Failure) {
      plans.push({ method, path, left, how })
    },
    calls: (method: string, path: string) => seen.filter((s) => s === `${method} ${path}`).length,
  }
}

let store: Store
let api: ServerProcess
let proxy: ReturnType<typeof startFailingProxy>
let storeProcess: ChildProcess
let storeUrl: string
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keepsake-retry-store-'))

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  test.setTimeout(180_000)
  store = await freshStore('pglite')
  api = await startServer({ ...store.env, DEMO_MODE: 'true', NODE_ENV: 'production' })
  proxy = startFailingProxy(api.url)
  const proxyPort = await freePort()
  await new Promise<void>((resolve) => proxy.server.listen(proxyPort, '127.0.0.1', resolve))
  const port = await freePort()
  storeUrl = `http://localhost:${port}`
  storeProcess = spawn(process.execPath, ['scripts/serve.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: storeUrl,
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      API_BASE_URL: `http://127.0.0.1:${proxyPort}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${storeUrl}/favicon.svg`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error('the store did not start')
})

test.afterAll(async () => {
  storeProcess?.kill('SIGKILL')
  proxy?.server.close()
  killServers()
  await store?.drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(page: Page, name: string) {
  await page.goto(`${storeUrl}/utils/demo-sign-in`)
  await waitForHydration(page)
  await page.getByRole('button', { name: `Sign in as ${name}` }).click()
  await expect(page.getByTestId('current-user')).toHaveText(`Signed in as ${name}`)
}

const CART = '/v1/photo-products-cart'

test('a cart read survives two failures of the API; a third shows a clear error with Try again, which then works', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page, 'Maya Rivera')

  proxy.failNext('GET', CART, 2, 'unavailable')
  const before = proxy.calls('GET', CART)
  await page.goto(`${storeUrl}/photo-products/cart`)
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible({ timeout: 30_000 })
  expect(proxy.calls('GET', CART) - before).toBe(3)

  // The page load reads the cart twice: the server's render (3 attempts), then the browser (one server-function call, 3 attempts).
  proxy.failNext('GET', CART, 6, 'unavailable')
  const again = proxy.calls('GET', CART)
  await page.reload()
  const failed = page.getByTestId('cart-error')
  await expect(failed).toBeVisible({ timeout: 45_000 })
  await expect(failed).toContainText('We couldn’t load your cart')
  // Three attempts per read, none repeated by the page on top.
  expect(proxy.calls('GET', CART) - again).toBe(6)

  await failed.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible({ timeout: 30_000 })
})

test('a refusal is never retried: the API is asked once and the shopper sees its reason', async ({ page }) => {
  await signIn(page, 'Maya Rivera')
  const code = (
    (await (await page.request.get(`${api.url}/v1/growth/advocate/redemptions/`, { headers: { cookie: await cookieOf(page) } })).json()) as { code: string }
  ).code
  await page.goto(`${storeUrl}/referral/redeem?code=${code}`)
  await waitForHydration(page)
  const redeem = '/v1/growth/referred/redemptions'
  const before = proxy.calls('POST', redeem)
  await page.getByRole('button', { name: 'Claim my $10' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'own invite' })).toContainText('This is your own invite.')
  expect(proxy.calls('POST', redeem) - before).toBe(1)
})

test('a write whose answer was lost is sent again under the same key: the friend’s invite is redeemed once', async ({ browser }) => {
  test.setTimeout(120_000)
  const advocate = await browser.newPage()
  await signIn(advocate, 'Maya Rivera')
  const state = (await (
    await advocate.request.get(`${api.url}/v1/growth/advocate/redemptions/`, { headers: { cookie: await cookieOf(advocate) } })
  ).json()) as {
    code: string
    redemptions: unknown[]
  }

  const friend = await (await browser.newContext()).newPage()
  await friend.goto(`${storeUrl}/referral/r/${state.code}`)
  await friend.goto(`${storeUrl}/utils/demo-sign-in?redirect=%2Freferral%2Fredeem`)
  await waitForHydration(friend)
  await friend.getByRole('button', { name: 'Sign in as a new family' }).click()
  await expect(friend).toHaveURL(/\/referral\/redeem(\?|$)/)
  await waitForHydration(friend)

  const redeem = '/v1/growth/referred/redemptions'
  proxy.failNext('POST', redeem, 1, 'answer-lost')
  const before = proxy.calls('POST', redeem)
  await friend.getByRole('button', { name: /Claim my/ }).click()
  await expect(friend.getByTestId('redeem-success')).toBeVisible({ timeout: 30_000 })
  // Sent twice (the first answer was lost), applied once.
  expect(proxy.calls('POST', redeem) - before).toBe(2)
  const after = (await (
    await advocate.request.get(`${api.url}/v1/growth/advocate/redemptions/`, { headers: { cookie: await cookieOf(advocate) } })
  ).json()) as {
    redemptions: unknown[]
  }
  expect(after.redemptions.length).toBe(state.redemptions.length + 1)
})

async function cookieOf(page: Page) {
  const cookies = await page.context().cookies(storeUrl)
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ')
}
