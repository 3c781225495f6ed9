import path from 'node:path'
import tailwindcss from '@tailwindcss/vite'
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  server: { port: 3000 },
  resolve: { alias: { '~': path.resolve(import.meta.dirname, 'app') } },
  plugins: [tailwindcss(), tanstackStart({ srcDirectory: 'app' }), react()],
})
