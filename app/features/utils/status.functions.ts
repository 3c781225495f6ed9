import { createServerFn } from '@tanstack/react-start'
import { version } from '../../../package.json'
import { getConfig } from '../../../app.config'
import { statusSummaryOf } from './engine-status'

/** /utils/status: the engine summary, read on the server; the configuration itself never leaves it. */
export const getStatusSummary = createServerFn({ method: 'GET' }).handler(() => statusSummaryOf(getConfig(), version ?? null))
