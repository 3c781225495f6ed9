import { createServerFn } from '@tanstack/react-start'
import { getCookie } from '@tanstack/react-start/server'
import { getConfig, publicConfigOf } from '../../app.config'
import { CONSENT_COOKIE, consentFromCookie } from './analytics'
import { activeRootOverride, msUntilNextRootOverrideEdge } from './root-override'

/** What every page needs before it renders: the public configuration, maintenance, the root-override window and the analytics answer. */
export const getShellState = createServerFn({ method: 'GET' }).handler(() => {
  const config = getConfig()
  const now = new Date()
  return {
    publicConfig: publicConfigOf(config),
    maintenance: config.maintenance,
    rootOverride: activeRootOverride(config.rootOverrides, now)?.app ?? null,
    /** Relative, so the browser's clock does not matter: the tab reloads the shell this long from now. */
    msUntilRootSwitch: msUntilNextRootOverrideEdge(config.rootOverrides, now),
    /** Read from the request, so a shopper who has answered gets a page without the consent bar, not a flash of it. */
    analyticsConsent: consentFromCookie(getCookie(CONSENT_COOKIE)),
  }
})
