import path from 'node:path'
import { defineConfig } from 'vitest/config'

const alias = { '~': path.resolve(import.meta.dirname, 'app') }
const postgres = process.env.TEST_DATABASE_URL

export default defineConfig({
  resolve: { alias },
  test: {
    // PGlite boots a WASM Postgres per test file; on a busy 2-core machine that takes seconds.
    hookTimeout: 60_000,
    testTimeout: 60_000,
    // Two files at a time: Vitest's default on a 2-core machine is one, and most API test files wait on a database
    // or a child process more than they compute (measured: 697 s → 480 s for the whole run).
    maxWorkers: 2,
    projects: [
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        resolve: { alias },
        test: { name: 'api (pglite)', include: ['tests/api/**/*.test.ts'], env: { TEST_DB_ENGINE: 'pglite' } },
      },
      ...(postgres
        ? [
            {
              resolve: { alias },
              test: {
                name: 'api (postgres)',
                include: ['tests/api/**/*.test.ts'],
                env: { TEST_DB_ENGINE: 'postgres' },
                // Each file gets its own database on the shared server; keep the load modest on 2 cores.
                maxWorkers: 2,
              },
            },
          ]
        : []),
    ],
  },
})
