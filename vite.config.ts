import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// First-load chunks (docs/decisions/024): the client build groups the shared code into a few large
// chunks instead of ~40 small ones (rolldown folds `vendor` and most of `app-shell` into the entry
// chunk), so a landing loads 3–6 scripts. Only the packages listed go in `vendor`: pixi.js,
// posthog-js and sonner (and their dependencies) stay in their lazy chunks. Client build only.
const vendorPackages =
  /[\\/]node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/][^\\/]+|seroval|seroval-plugins|cookie-es|use-sync-external-store|zod)[\\/]/
const appShell = /[\\/]app[\\/](components|lib|catalogue|contract)[\\/]/
// The shipping promise shows on the /photo-products landing as well as on lazy pages: kept out of the leftover
// `app-shell` chunk (what lazy routes share), which the landing would otherwise load whole for two small modules.
const shippingPromise = /[\\/]app[\\/](catalogue[\\/]shipping|features[\\/]cart[\\/](ShippingPromise|shipping\.functions))\.tsx?$/

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
                { name: 'vendor', test: vendorPackages, priority: 3 },
                { name: 'shipping-promise', test: shippingPromise, priority: 2 },
                { name: 'app-shell', test: appShell, priority: 1 },
              ],
            },
          },
        },
      },
    },
  },
  plugins: [tailwindcss(), tanstackStart({ srcDirectory: 'app' }), react()],
})
