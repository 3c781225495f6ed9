/**
 * Photo constants with no zod, so browser code can use them without loading the contract's validator
 * (docs/decisions/004). The schemas in photos.ts are built from these.
 */

/** SPEC.md §9: photo size names. Media URLs carry the word, so a client switches size by replacing it (SPEC.md §4). */
export const photoSizeWords = ['small', 'smartphone'] as const
export type PhotoSizeWord = (typeof photoSizeWords)[number]

/** The normalised original, kept for printing; never served, never a proxy size. */
export const ORIGINAL_RENDITION = 'original'
/** The stored original (what is printed) is at most this many pixels on its long edge. */
export const ORIGINAL_LONG_EDGE = 4096
export type RenditionName = PhotoSizeWord | typeof ORIGINAL_RENDITION

/** SPEC.md §3, §9: album filter values. */
export const albumFilters = ['all', 'favorite', 'recommended'] as const
export type AlbumFilter = (typeof albumFilters)[number]

/** How many album photos one page holds. */
export const ALBUM_PAGE_SIZE = 30
export const CURATED_PHOTOS_DEFAULT = 12
export const CURATED_PHOTOS_MAX = 50

/** What a shopper may upload (the Album photos issue). */
export const uploadContentTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const
export type UploadContentType = (typeof uploadContentTypes)[number]
export const MAX_UPLOAD_BYTES = 30 * 1024 * 1024
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000
export const MAX_FILE_NAME_LENGTH = 200
