import { createHash } from 'node:crypto'
import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// First-load chunks (docs/decisions/024, 046): the client build puts the shared libraries in `vendor`, which rolldown
// folds into the entry chunk. Only the packages listed go there: pixi.js, posthog-js and sonner (and their
// dependencies) stay in their lazy chunks. The app's own components, lib and catalogue are no longer grouped into one
// `app-shell` chunk: every landing loaded all of it (8.8 KB gzip) for a hero and an ornament picture, so each page now
// loads the modules it paints, in the chunks rolldown makes for them (decision 046). Client build only.
// `vendor` takes only the modules the entry imports statically (rolldown's `$initial` tag): it used to take every module
// of those packages, so code that only lazy pages use (react-query's mutations and infinite queries: 3 KB raw) rode in
// every first load. Those now sit in chunks of their own, loaded with the pages that use them.
const vendorPackages =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/][^\\/]+|seroval|seroval-plugins|cookie-es|use-sync-external-store|zod)[\\/]/
// Classic zod (what the contract's schemas are built with), its JSON-Schema code and its English messages: a chunk of
// their own, for any lazy page that reaches them. In `vendor` they were folded into every page's entry chunk, though
// the first load validates with zod/mini only (decision 046; the budget test fails should a first load load it).
const classicZod = /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic[\\/]|locales[\\/]|core[\\/](to-json-schema|json-schema-processors|json-schema-generator)\.js)/
// The shipping promise shows on the /photo-products landing as well as on lazy pages: one small chunk of its own. Its
// group does not take its dependencies: it used to take catalogue/currency.ts, so /egifts and the referral pages, which
// format an amount and paint no shipping promise, loaded the whole chunk (2 KB gzip) for it.
const shippingPromise = /[\\/]app[\\/](catalogue[\\/]shipping|features[\\/]cart[\\/](ShippingPromise|shipping\.functions))\.tsx?$/

/**
 * A server function's id, in its client stub and in the URL that calls it: ten characters of the SHA-256 of its file
 * (relative to the project) and name. Start's own is all 64 hex digits of one, and every stub a page loads carries
 * its id (the header's alone are 20): incompressible text that cost each first load about 0.6 KB gzip. 60 bits are
 * plenty for a few hundred functions, and Start still refuses two functions one id (it numbers the second).
 */
function serverFnId(filename: string, functionName: string) {
  return createHash('sha256')
    .update(`${path.relative(import.meta.dirname, filename)}--${functionName}`)
    .digest('base64url')
    .slice(0, 10)
}

export default defineConfig({
  server: { port: 3000 },
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                // `vendor` first: a group takes the dependencies of what it matches, and classic zod's include zod's core.
                { name: 'vendor', test: (id: string) => vendorPackages.test(id) && !classicZod.test(id), tags: ['$initial'], priority: 4 },
                { name: 'zod-classic', test: classicZod, priority: 3 },
                { name: 'shipping-promise', test: shippingPromise, priority: 2, includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [
    tailwindcss(),
    tanstackStart({
      srcDirectory: 'app',
      serverFns: { generateFunctionId: ({ filename, functionName }) => serverFnId(filename, functionName) },
      // A route's loader is split out of the route tree (decision 049) into the same chunk as its component: a page
      // loads both at once in any case (its hydration, a navigation, an intent preload), and one chunk instead of two
      // per route takes 40 names out of the entry's preload map and a request out of every first load.
      router: { codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] } },
    }),
    react(),
  ],
})
