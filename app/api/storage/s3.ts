import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { assertSafeKey, ObjectTooLarge, type ObjectStorage } from './storage'

export type S3Settings = {
  bucket: string
  endpoint: string | null
  region: string
  accessKeyId: string | null
  secretAccessKey: string | null
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)

/** An S3-compatible bucket (AWS, MinIO, R2…); a custom endpoint is addressed path-style. */
export function s3Storage(settings: S3Settings): ObjectStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  })
  const Bucket = settings.bucket
  const hosts = settings.endpoint ? [new URL(settings.endpoint).host] : [`${Bucket}.s3.${settings.region}.amazonaws.com`]

  return {
    kind: 's3',
    hosts,
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: assertSafeKey(key), Body: body, ContentType: contentType }))
    },
    async get(key, maxBytes) {
      try {
        // A capped read asks for one byte more than allowed: if it arrives, the object is too large.
        const Range = maxBytes === undefined ? undefined : `bytes=0-${maxBytes}`
        const out = await client.send(new GetObjectCommand({ Bucket, Key: assertSafeKey(key), Range }))
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
        if (notFound(error)) return null
        throw error
      }
    },
    async size(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: assertSafeKey(key) }))
        return out.ContentLength ?? 0
      } catch (error) {
        if (notFound(error)) return null
        throw error
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertSafeKey(key) }))
    },
    presignPut(key, contentType, expiresInSeconds) {
      return getSignedUrl(client, new PutObjectCommand({ Bucket, Key: assertSafeKey(key), ContentType: contentType }), {
        expiresIn: expiresInSeconds,
        signableHeaders: new Set(['content-type']),
      })
    },
  }
}
