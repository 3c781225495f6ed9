import { createServerFn } from '@tanstack/react-start'
import { getConfig } from '../../../app.config'
import { readSmokescreenReport } from './smokescreen-report.server'

/**
 * /utils/smokescreens: sign-ups per product, or null when demo mode is off (the page is then
 * absent) or the API runs elsewhere (its database is not this server's to read).
 */
export const getSmokescreenReport = createServerFn({ method: 'GET' }).handler(async () => {
  const config = getConfig()
  if (!config.demoMode || new URL(config.apiBaseUrl).origin !== new URL(config.publicUrl).origin) return null
  return { products: await readSmokescreenReport(), readAt: new Date().toISOString() }
})
