import type { AppConfig } from '../../../app.config'
import { localStorage } from './local'
import { s3Storage } from './s3'
import type { ObjectStorage } from './storage'

/** The configured storage engine (ARCHITECTURE.md "Embedded by default"). */
export function storageFor(config: Pick<AppConfig, 'storage'>): ObjectStorage {
  return config.storage.kind === 's3' ? s3Storage(config.storage) : localStorage(config.storage.root)
}
