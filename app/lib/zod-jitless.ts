/**
 * In the browser zod validates without compiling code: its `Function('')` probe would be a CSP
 * violation (decision 021). Imported first by the modules the client loads first (start.ts,
 * router.tsx), so it runs before any schema parses.
 */
import { config } from 'zod/mini'

if (typeof window !== 'undefined') config({ jitless: true })
