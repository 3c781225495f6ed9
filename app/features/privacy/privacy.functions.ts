import { createServerFn } from '@tanstack/react-start'
import { readRetention } from './retention.server'

/** /privacy: the retention periods, read on the server because their constants live in the API's services. */
export const getRetention = createServerFn({ method: 'GET' }).handler(() => readRetention())
