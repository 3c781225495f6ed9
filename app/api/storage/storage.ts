/** Where photos and print files live: local disk by default, an S3-compatible bucket when configured. */
export type StoredObject = { body: Buffer; contentType: string }

export interface ObjectStorage {
  readonly kind: 'local' | 's3'
  put(key: string, body: Buffer, contentType: string): Promise<void>
  /** The object, or null when there is none under that key; ObjectTooLarge when it is over maxBytes (read no further). */
  get(key: string, maxBytes?: number): Promise<StoredObject | null>
  /** Size in bytes, or null when absent; cheaper than get for a check. */
  size(key: string): Promise<number | null>
  delete(key: string): Promise<void>
  /** S3 only: a presigned PUT for one key; the content type is part of the signature. */
  presignPut?(key: string, contentType: string, expiresInSeconds: number): Promise<string>
  /** Local disk only: deletes temporary files of writes a dead process left half-done (older than `olderThanMs`); answers how many. */
  sweepTemporary?(olderThanMs: number): Promise<number>
  /** Hosts that serve this storage's objects directly (for the photo proxy's allow-list). */
  readonly hosts: readonly string[]
}

export class ObjectTooLarge extends Error {
  constructor(key: string, maxBytes: number) {
    super(`${key} is larger than ${maxBytes} bytes`)
    this.name = 'ObjectTooLarge'
  }
}

const UNSAFE_IN_SEGMENT = /[\\\u0000-\u001f\u007f]/

/** Keys are built by the API, never taken verbatim from a client; this refuses anything that could leave its folder. */
export function assertSafeKey(key: string): string {
  const segments = key.split('/')
  const bad = segments.some((part) => part === '' || part === '.' || part === '..' || UNSAFE_IN_SEGMENT.test(part) || Buffer.byteLength(part) > 240)
  if (bad || key.length > 1024) throw new Error(`Refusing unsafe storage key ${JSON.stringify(key)}`)
  return key
}
