import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { dependencyUnavailable } from '../errors'
import { assertSafeKey, ObjectTooLarge, type ObjectStorage } from './storage'

export type S3Settings = {
  bucket: string
  endpoint: string | null
  region: string
  accessKeyId: string | null
  secretAccessKey: string | null
  /** S3_CONNECT_TIMEOUT_MS: how long connecting to S3 may take. */
  connectTimeoutMs?: number
  /** S3_REQUEST_TIMEOUT_MS: how long one request may take, and the longest its socket may stay silent (a body that stops). */
  requestTimeoutMs?: number
}

/** The defaults of S3_CONNECT_TIMEOUT_MS and S3_REQUEST_TIMEOUT_MS (app.config.ts). */
export const S3_CONNECT_TIMEOUT_MS = 2_000
export const S3_REQUEST_TIMEOUT_MS = 10_000
/** One try and one retry: a hung S3 is answered 503 within two request deadlines. */
const S3_MAX_ATTEMPTS = 2

const status = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined)

/** The bucket or the credentials are wrong: say which setting to check, not S3's bare code (a HEAD's error has no body). */
export class S3StorageError extends Error {
  constructor(bucket: string, operation: string, key: string, cause: S3ServiceException, code = cause.name) {
    const http = cause.$metadata.httpStatusCode
    const said = `${code} (HTTP ${http})${cause.message === 'UnknownError' ? '' : `: ${cause.message}`}`
    const hint =
      code === 'NoSuchBucket'
        ? ' — check S3_BUCKET'
        : code === 'AuthorizationHeaderMalformed'
          ? ' — check S3_REGION'
          : http === 401 || http === 403
            ? ' — check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'
            : ''
    super(`S3 ${operation} of "${key}" in bucket "${bucket}" failed: ${said}${hint}`, { cause })
    this.name = 'S3StorageError'
  }
}

/** Network failures of a request or of its body: S3 is gone or hung, not refusing this request. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
])

/**
 * S3 did not answer (refused, reset, past its deadline) or answered with a server error (5xx, or 429 slow down):
 * an outage, answered 503 (issue 43). A 4xx is about this request or our settings, and stays what it is.
 */
export function isS3Outage(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    const http = status(error)
    return http === undefined || http >= 500 || http === 429
  }
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  return error.name === 'TimeoutError' || (typeof code === 'string' && OUTAGE_CODES.has(code)) || error.message === 'aborted'
}

/** An S3-compatible bucket (AWS, MinIO, R2…); a custom endpoint is addressed path-style. */
export function s3Storage(settings: S3Settings): ObjectStorage {
  const client = new S3Client({
    region: settings.region,
    maxAttempts: S3_MAX_ATTEMPTS,
    // The SDK builds its NodeHttpHandler from these options.
    requestHandler: {
      connectionTimeout: settings.connectTimeoutMs ?? S3_CONNECT_TIMEOUT_MS,
      requestTimeout: settings.requestTimeoutMs ?? S3_REQUEST_TIMEOUT_MS,
      throwOnRequestTimeout: true,
      // A response whose body stops mid-way is cut off too (requestTimeout ends when the headers arrive).
      socketTimeout: settings.requestTimeoutMs ?? S3_REQUEST_TIMEOUT_MS,
    },
    // Otherwise a presigned PUT carries the CRC32 of an empty body, and S3 refuses every real upload (BadDigest).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  })
  const Bucket = settings.bucket
  const hosts = settings.endpoint ? [new URL(settings.endpoint).host] : [`${Bucket}.s3.${settings.region}.amazonaws.com`]
  const failed = (operation: string, key: string, error: unknown) => {
    // The cause stays on the 503 for whoever logs it; the shopper hears only that storage is not answering.
    if (isS3Outage(error)) return Object.assign(dependencyUnavailable('Photo storage'), { cause: error })
    return error instanceof S3ServiceException ? new S3StorageError(Bucket, operation, key, error) : error
  }

  /**
   * A HEAD's 404 has no body to tell a missing key from a missing bucket, so the bucket is asked about;
   * if that is not allowed (no s3:ListBucket), the key is taken to be missing, as before.
   */
  async function missingKey(operation: string, key: string, error: unknown) {
    if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return true
    if (!(error instanceof S3ServiceException) || status(error) !== 404 || error.name === 'NoSuchBucket') return false
    const bucketMissing = await client.send(new HeadBucketCommand({ Bucket })).then(
      () => null,
      (bucketError: unknown) => (bucketError instanceof S3ServiceException && status(bucketError) === 404 ? bucketError : null),
    )
    if (bucketMissing) throw new S3StorageError(Bucket, operation, key, bucketMissing, 'NoSuchBucket')
    return true
  }

  async function read(key: string, Range?: string) {
    return client.send(new GetObjectCommand({ Bucket, Key: key, Range }))
  }

  return {
    kind: 's3',
    hosts,
    async put(key, body, contentType) {
      assertSafeKey(key)
      try {
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }))
      } catch (error) {
        throw failed('PUT', key, error)
      }
    },
    async get(key, maxBytes) {
      assertSafeKey(key)
      try {
        // A capped read asks for one byte more than allowed: if it arrives, the object is too large.
        let out
        try {
          out = await read(key, maxBytes === undefined ? undefined : `bytes=0-${maxBytes}`)
        } catch (error) {
          // S3 answers any range of an empty object with 416 InvalidRange; read it whole (it is empty).
          if (status(error) !== 416) throw error
          out = await read(key)
        }
        const total = Number(out.ContentRange?.split('/')[1] ?? out.ContentLength ?? 0)
        if (maxBytes !== undefined && total > maxBytes) {
          out.Body?.transformToWebStream()
            .cancel()
            .catch(() => undefined)
          throw new ObjectTooLarge(key, maxBytes)
        }
        const bytes = await out.Body?.transformToByteArray()
        return { body: Buffer.from(bytes ?? new Uint8Array()), contentType: out.ContentType ?? 'application/octet-stream' }
      } catch (error) {
        if (await missingKey('GET', key, error)) return null
        throw failed('GET', key, error)
      }
    },
    async size(key) {
      assertSafeKey(key)
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }))
        return out.ContentLength ?? 0
      } catch (error) {
        if (await missingKey('HEAD', key, error)) return null
        throw failed('HEAD', key, error)
      }
    },
    async delete(key) {
      assertSafeKey(key)
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }))
      } catch (error) {
        throw failed('DELETE', key, error)
      }
    },
    async presignPut(key, contentType, expiresInSeconds) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: assertSafeKey(key), ContentType: contentType }), {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type']),
      })
    },
  }
}
