import * as z from 'zod/mini'
import { safeRedirectPath } from '~/contract/redirect-path'
import { buyNowHeaderTypes } from '~/lib/buy-now-header-types'

/**
 * The zod schemas every route's `validateSearch` (and path-param check) uses. A shopper can arrive
 * with any query string, so a value that does not pass falls back (to undefined, or the field's
 * default) and never fails the page. zod/mini, not the contract's classic zod: these run in every
 * page's first load (decision 004), and classic zod with its locale is ~90 KB gzip there. The
 * browser runs zod jitless (app/lib/zod-jitless.ts, decision 021).
 */

/**
 * A fallback, as `z.catch()` makes it. Built from the class because `z.catch()` reaches zod's util
 * module through its namespace (`core.util.constantCatch`), which keeps all of that module in the
 * bundle: +3 KB gzip on every page for one helper.
 */
function fallback<T extends z.core.$ZodType>(innerType: T, catchValue: () => z.output<T>) {
  return new z.ZodMiniCatch({ type: 'catch', innerType, catchValue }) as unknown as z.ZodMiniCatch<T>
}

/** `schema`, or undefined when the value is missing or does not pass: dropped, never an error. */
export function orUndefined<T extends z.core.SomeType>(schema: T) {
  return fallback(z.optional(schema), () => undefined)
}

/**
 * A whole search object that never fails: each field falls back on its own, and should the router
 * hand over something that is not an object at all, the answer is empty. Every field must be given
 * (as undefined) when its value fails, or the router would keep the raw value beside the validated ones;
 * zod's object does that for a key that was present.
 */
export function searchSchema<T extends Record<string, z.core.SomeType>>(shape: T) {
  const object = z.object(shape)
  return fallback(object, () => ({}) as z.output<typeof object>)
}

/**
 * zod's UUID rule (RFC 9562 versions 1–8, plus the nil and max UUIDs), as a regex: z.uuid()'s string
 * formats cost more bytes (a unit test holds the two equal).
 */
export const uuid = z
  .string()
  .check(
    z.regex(
      /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/,
    ),
  )
/** A string of `min` to `max` characters, none of them a control character (a NUL, a line break). */
export const text = (max: number, min = 0) => z.string().check(z.minLength(min), z.maxLength(max), z.regex(/^[^\u0000-\u001f\u007f]*$/))
const plainText = (max: number, min: number) => z.string().check(z.minLength(min), z.maxLength(max))
/** A path on this site only (no open redirect), normalised; anything else is dropped. */
export const redirectPath = z.string().check(
  z.overwrite((value) => safeRedirectPath(value) ?? ''),
  z.minLength(1),
)

/** Hand-offs for code that checks one value at a time (the session context). */
export const uuidOrUndefined = (value: unknown): string | undefined => (uuid.safeParse(value).success ? (value as string) : undefined)
export function textOrUndefined(value: unknown, max: number, min = 0): string | undefined {
  return plainText(max, min).safeParse(value).success ? (value as string) : undefined
}

// ---- /photo-products/photos: the album picker's tab and page ----

/** The picker's tabs as the URL spells them (`?filter=favorites`); All is the default, left out. */
export const photoFilters = ['all', 'favorites', 'recommended'] as const
export type PhotoFilterParam = (typeof photoFilters)[number]
/** The API's opaque album cursor: base64url payload, a dot, base64url signature. */
export const ALBUM_CURSOR = /^[\w-]{1,480}\.[\w-]{1,64}$/
export const photosSearch = searchSchema({
  filter: orUndefined(z.enum(photoFilters)),
  cursor: orUndefined(z.string().check(z.maxLength(512), z.regex(ALBUM_CURSOR))),
})

// ---- the other routes' query strings ----

/** ?redirect=: where to land once signed in. */
export const redirectSearch = searchSchema({ redirect: orUndefined(redirectPath) })
export const continueSearch = searchSchema({ failed: orUndefined(z.enum(['expired', 'unavailable'])), redirect: orUndefined(redirectPath) })
export const linkSearch = searchSchema({ token: orUndefined(text(128, 1)) })
/** ?headerType=: an unknown header falls back to the default one. */
export const buyNowSearch = searchSchema({ headerType: orUndefined(z.enum(buyNowHeaderTypes)) })
/** ?cancelled=<id>: the cancel URL the API gives the payment provider. */
export const cancelledSearch = searchSchema({ cancelled: orUndefined(uuid) })
/** ?photos=chosen: arriving from the photo picker. */
export const designerSearch = searchSchema({ photos: orUndefined(z.literal('chosen')) })
/** The success URLs the API gives the provider: our id, and the provider's session id. */
export const checkoutCompleteSearch = searchSchema({ checkout: orUndefined(uuid), session_id: orUndefined(text(255)) })
export const egiftCompleteSearch = searchSchema({ gift: orUndefined(uuid), session_id: orUndefined(text(255)) })
/** ?code=: a referral invite code, as the API spells it. */
export const referralRedeemSearch = searchSchema({ code: orUndefined(z.string().check(z.regex(/^[A-Za-z0-9-]{1,32}$/), z.toUpperCase())) })
/** ?code=: an e-gift code; the API forgives case, spaces and dashes, so they are kept as sent. */
export const egiftRedeemSearch = searchSchema({ code: orUndefined(z.string().check(z.trim(), z.regex(/^[A-Za-z0-9 -]{1,40}$/), z.toUpperCase())) })

// ---- path params: a value that does not pass is a not-found page ----

/** An ornament variant id, written exactly as its number (no sign, no leading zero). */
export const variantIdParam = z.string().check(z.regex(/^[1-9]\d{0,9}$/))
/** A partner offer id (the contract's rule, without the contract's classic zod). */
export const offerIdParam = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/))
/** A checkout session or redemption id. */
export const idParam = z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i))

export type PhotosSearch = z.output<typeof photosSearch>
