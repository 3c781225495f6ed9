import { useLoaderData } from '@tanstack/react-router'
import type { PublicConfig } from '../../app.config'

/** The public part of the configuration, loaded once by the root route. */
export function usePublicConfig(): PublicConfig {
  return useLoaderData({ from: '__root__' }).publicConfig
}
