import * as z from 'zod/mini'
import { uuid as uuidSchema } from './search-params'

/**
 * zod/mini schemas for code outside the URL (the designer's saved draft, the bundles answer), each accepting exactly
 * what its zod/mini namesake accepts, built from the kinds every page already loads for the routes' search validation
 * (strings, literals, checks) or for each other. A kind's code lives in one zod module, and zod's modules ride in every
 * page's entry chunk (the `vendor` group, vite.config.ts): `z.int()`, `z.uuid()`, `z.iso.datetime()`, `z.boolean()`
 * and `z.refine()` used by one lazy page cost every first load 1.3 KB gzip (decision 049).
 * tests/unit/lean-zod.test.ts holds each to its namesake.
 */

/** `z.uuid()`: the routes' UUID rule (app/lib/search-params.ts). */
export const uuid = () => uuidSchema

/** `z.refine(ok, message)`, as a plain check function: the value fails when `ok` says no. */
export function refine<T>(ok: (value: T) => boolean, message?: string): z.core.CheckFn<T> {
  return (payload) => {
    // `continue`, as zod's refine: the value's other checks still run and report.
    if (!ok(payload.value)) payload.issues.push({ code: 'custom', input: payload.value, continue: true, ...(message === undefined ? {} : { message }) })
  }
}

/** `z.int()`: a number that is a safe integer. */
export const int = () => z.number().check(refine<number>(Number.isSafeInteger))

/** `z.boolean()`. */
export const boolean = () => z.literal([true, false])

/** `z.iso.datetime({ offset: true })`: zod's pattern for it, written out. */
export const isoDateTimeWithOffset = () =>
  z
    .string()
    .check(
      z.regex(
        /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|([+-](?:[01]\d|2[0-3]):[0-5]\d)))$/,
      ),
    )
