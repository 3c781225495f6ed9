import { createServerFn } from '@tanstack/react-start'
import { getConfig, publicConfigOf } from '../../app.config'
import { activeRootOverride, msUntilNextRootOverrideEdge } from './root-override'

/** What every page needs before it renders: the public configuration, maintenance and the root-override window. */
export const getShellState = createServerFn({ method: 'GET' }).handler(() => {
  const config = getConfig()
  const now = new Date()
  return {
    publicConfig: publicConfigOf(config),
    maintenance: config.maintenance,
    rootOverride: activeRootOverride(config.rootOverrides, now)?.app ?? null,
    /** Relative, so the browser's clock does not matter: the tab reloads the shell this long from now. */
    msUntilRootSwitch: msUntilNextRootOverrideEdge(config.rootOverrides, now),
  }
})
