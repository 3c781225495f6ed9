import { SESSION_TTL_MS } from '~/api/services/accounts'
import { PREVIEW_RETENTION_DAYS } from '~/api/services/fulfilment'

const DAY_MS = 24 * 60 * 60 * 1000

/** How long the album API keeps what the privacy page names, from the constants the API itself runs on. */
export function readRetention() {
  return {
    previewRetentionDays: PREVIEW_RETENTION_DAYS,
    signInSessionDays: Math.round(SESSION_TTL_MS / DAY_MS),
  }
}
