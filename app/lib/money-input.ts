/**
 * The one parser for money a shopper types (issue 15, bug 1). What the shopper sees is what is
 * charged: the text is read exactly, never cleaned into another number ("12.50" once became $125 by
 * dropping the point). Amounts are whole dollars (SPEC §9); "25", "$25", "25.00" and "1,000" are read
 * as the whole dollars they show, "12.50" is refused with a message that says so. Zod-free: it runs in
 * the first-load bundle of the e-gift page (docs/decisions/004).
 */
export type WholeDollarsResult =
  { ok: true; dollars: number; cents: number } | { ok: false; reason: 'empty' | 'not-a-number' | 'cents' | 'too-low' | 'too-high'; message: string }

const formatDollars = (n: number) => `$${n.toLocaleString('en-US')}`

/** `$ 1,234.00` → digits and an optional fraction; null when the text is not an amount at all. */
const AMOUNT = /^\$?\s*((?:\d{1,3}(?:,\d{3})+)|\d+)(?:\.(\d*))?$/

/**
 * `bounds` adds the range check; without them the range is left to the server's own message (the
 * e-gift form shows the amount the shopper typed, refused or not, and lets the API say the range).
 */
export function parseWholeDollars(text: string, bounds?: { min: number; max: number }): WholeDollarsResult {
  const value = text.trim()
  const range = bounds ? `Choose an amount from ${formatDollars(bounds.min)} to ${formatDollars(bounds.max)}.` : 'Enter an amount in whole dollars.'
  if (value === '' || value === '$') return { ok: false, reason: 'empty', message: bounds ? `Enter an amount. ${range}` : range }
  const match = AMOUNT.exec(value)
  if (!match) return { ok: false, reason: 'not-a-number', message: 'Enter the amount in whole dollars, such as 40.' }
  const whole = match[1]!.replaceAll(',', '')
  const fraction = match[2] ?? ''
  // More digits than any amount we sell: too high, without building a number that loses precision.
  if (whole.replace(/^0+/, '').length > 9) return { ok: false, reason: 'too-high', message: bounds ? range : 'That amount is too large.' }
  const dollars = Number(whole)
  if (/[1-9]/.test(fraction)) {
    const down = Math.floor(dollars)
    return {
      ok: false,
      reason: 'cents',
      message: `Gift amounts are whole dollars: enter ${formatDollars(down)} or ${formatDollars(down + 1)}, without cents.`,
    }
  }
  if (bounds && dollars < bounds.min) return { ok: false, reason: 'too-low', message: range }
  if (bounds && dollars > bounds.max) return { ok: false, reason: 'too-high', message: range }
  return { ok: true, dollars, cents: dollars * 100 }
}
