/** Where a photo's subject is, as fractions 0–1 of its upright width (x) and height (y) (decision 059). */
export type FocalPoint = { x: number; y: number }

const isFraction = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1

/** A focal point as kept anywhere (an API answer, session storage); anything else is none. */
export function readFocalPoint(value: unknown): FocalPoint | null {
  if (typeof value !== 'object' || value === null) return null
  const { x, y } = value as Record<string, unknown>
  return isFraction(x) && isFraction(y) ? { x, y } : null
}
