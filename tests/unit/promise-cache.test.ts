import { describe, expect, it } from 'vitest'
import { PromiseCache } from '../../app/compositor/promise-cache'

describe('PromiseCache', () => {
  it('makes each key once, and evicts the least recently used beyond the weight limit', async () => {
    const cache = new PromiseCache<string>(10, (v) => v.length)
    let made = 0
    const make = (v: string) => async () => {
      made++
      return v
    }
    await cache.get('a', make('aaaa'))
    await cache.get('b', make('bbbb'))
    expect(await cache.get('a', make('never'))).toBe('aaaa') // a is now the most recent
    await cache.get('c', make('cccc')) // 12 > 10: b goes
    expect(made).toBe(3)
    expect(await cache.get('a', make('x'))).toBe('aaaa')
    expect(await cache.get('b', make('bbbb'))).toBe('bbbb')
    expect(made).toBe(4)
  })

  it('forgets a failure so the next call tries again', async () => {
    const cache = new PromiseCache<number>(5)
    await expect(cache.get('k', async () => Promise.reject(new Error('nope')))).rejects.toThrow('nope')
    await Promise.resolve()
    expect(await cache.get('k', async () => 7)).toBe(7)
  })
})
