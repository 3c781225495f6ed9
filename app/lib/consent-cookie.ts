/** First-party cookie holding the shopper's analytics answer, read by the server so a decided page renders without the bar. */
export const CONSENT_COOKIE = 'ks_consent'
export const CONSENT_MAX_AGE_DAYS = 365
