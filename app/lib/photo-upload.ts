import { uploadContentTypes, type UploadContentType } from '../catalogue/photo-constants'
import type { UploadLink } from '../contract/photos'
import { withRetry, type Sleep } from './retry'

/** SPEC.md §8's names for the two steps, as the shopper reads them after the last failure. */
export const UPLOAD_LINK_OPERATION = 'Upload link creation'
const UPLOAD_OPERATION = 'Upload'

/** SPEC.md §9: the signed file upload gives up after 60 000 ms. */
export const SIGNED_UPLOAD_TIMEOUT_MS = 60_000

const byExtension: Record<string, UploadContentType> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
}

/** The file's type as the upload link needs it; some browsers give HEIC files no type, so the extension decides. */
export function uploadTypeOf(file: { name: string; type: string }): UploadContentType | null {
  const type = file.type.toLowerCase()
  if ((uploadContentTypes as readonly string[]).includes(type)) return type as UploadContentType
  const extension = file.name.split('.').pop()?.toLowerCase() ?? ''
  return type === '' || type === 'application/octet-stream' ? (byExtension[extension] ?? null) : null
}

type XhrLike = Pick<XMLHttpRequest, 'open' | 'setRequestHeader' | 'send' | 'abort' | 'status' | 'responseText' | 'timeout'> & {
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null }
  onload: (() => void) | null
  onerror: (() => void) | null
  ontimeout: (() => void) | null
}

function failureMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } }
    if (parsed.error?.message) return parsed.error.message
  } catch {
    // S3 answers XML; fall through to the status.
  }
  return `the server answered ${status}`
}

/** PUTs a file to a signed URL with its content type, reporting progress (0–1); XHR because fetch cannot report upload progress. */
export function putSignedUpload(
  signedRequest: string,
  file: Blob,
  contentType: string,
  options: { onProgress?: (fraction: number) => void; timeoutMs?: number; Xhr?: new () => XhrLike } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new (options.Xhr ?? (XMLHttpRequest as unknown as new () => XhrLike))()
    xhr.open('PUT', signedRequest)
    xhr.timeout = options.timeoutMs ?? SIGNED_UPLOAD_TIMEOUT_MS
    xhr.setRequestHeader('content-type', contentType)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1)
        resolve()
      } else reject(Object.assign(new Error(failureMessage(xhr.status, xhr.responseText)), { status: xhr.status }))
    }
    xhr.onerror = () => reject(new Error('the connection failed'))
    xhr.ontimeout = () => reject(new Error(`no answer within ${(options.timeoutMs ?? SIGNED_UPLOAD_TIMEOUT_MS) / 1000} s`))
    xhr.send(file)
  })
}

export type UploadOptions = {
  /** One server-function call: the server retries the API (SPEC.md §8), so the browser asks once. */
  createLink: (request: { fileName: string; fileType: UploadContentType }) => Promise<UploadLink>
  onProgress?: (fraction: number) => void
  sleep?: Sleep
  Xhr?: new () => XhrLike
  timeoutMs?: number
}

/**
 * SPEC.md §8: the upload link is made once from here (the server function retries it: "Upload link
 * creation failed after 3 attempts: …"); the PUT, sent by the browser itself, makes up to 3 attempts
 * (2 s, then 4 s apart) and then fails with "Upload failed after 3 attempts: {cause}". Answers the link.
 */
export async function uploadPhoto(file: File, options: UploadOptions): Promise<UploadLink> {
  const fileType = uploadTypeOf(file)
  if (!fileType) throw new Error(`${file.name} is not a JPEG, PNG, WebP or HEIC photo`)
  const link = await options.createLink({ fileName: file.name, fileType })
  await withRetry(
    () => {
      options.onProgress?.(0)
      return putSignedUpload(link.signedRequest, file, fileType, { onProgress: options.onProgress, Xhr: options.Xhr, timeoutMs: options.timeoutMs })
    },
    { operation: UPLOAD_OPERATION, sleep: options.sleep },
  )
  return link
}
