/**
 * Promises kept by key, least recently used first out once their total weight passes `limit`;
 * a promise that fails is forgotten, so the next call tries again.
 */
export class PromiseCache<T> {
  private readonly entries = new Map<string, { promise: Promise<T>; weight: number }>()
  private total = 0

  constructor(
    private readonly limit: number,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
      return hit.promise
    }
    const entry = { promise: make(), weight: 0 }
    this.entries.set(key, entry)
    entry.promise.then(
      (value) => {
        if (this.entries.get(key) !== entry) return
        entry.weight = this.weigh(value)
        this.total += entry.weight
        for (const [k, e] of this.entries) {
          if (this.total <= this.limit) break
          if (k === key) continue
          this.entries.delete(k)
          this.total -= e.weight
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key)
      },
    )
    return entry.promise
  }
}
