import { createServerFn } from '@tanstack/react-start'
import { getConfig, publicConfigOf } from '../../app.config'
import { activeRootOverride } from './root-override'

/** What every page needs before it renders: the public configuration, maintenance and the root-override window. */
export const getShellState = createServerFn({ method: 'GET' }).handler(() => {
  const config = getConfig()
  return {
    publicConfig: publicConfigOf(config),
    maintenance: config.maintenance,
    rootOverride: activeRootOverride(config.rootOverrides, new Date())?.app ?? null,
  }
})
