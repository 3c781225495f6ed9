import { describe, expect, it } from 'vitest'
import { transitionCodeOf } from '../../app/auth-continue.server'

const at = (path: string) => transitionCodeOf(new URL(path, 'http://localhost:3000'))

describe('which page loads carry a transition code', () => {
  it('takes the code and the redirect from /auth/continue', () => {
    expect(at('/auth/continue?code=abc&redirect=%2Fphoto-products%2Fcart')).toEqual({ code: 'abc', landing: '/photo-products/cart' })
  })

  it.each(['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '', 'photo-products'])(
    'lands on the store, never elsewhere, when redirect is %j',
    (redirect) => {
      expect(at(`/auth/continue?code=abc&redirect=${encodeURIComponent(redirect)}`)).toEqual({ code: 'abc', landing: '/photo-products' })
    },
  )

  it('lands on the store when /auth/continue names no redirect', () => {
    expect(at('/auth/continue?code=abc')).toEqual({ code: 'abc', landing: '/photo-products' })
  })

  it('keeps an empty code, so the API refuses it and the shopper sees the friendly page', () => {
    expect(at('/auth/continue?code=')).toEqual({ code: '', landing: '/photo-products' })
  })

  it('leaves /auth/continue without a code to the router (the refusal page)', () => {
    expect(at('/auth/continue?failed=expired')).toBeNull()
  })

  it('takes ?transitionCode= on any other page and lands there without it, keeping the rest of the query', () => {
    expect(at('/loop/mothers-day?uuid=u-1&transitionCode=abc&market=us')).toEqual({ code: 'abc', landing: '/loop/mothers-day?uuid=u-1&market=us' })
    expect(at('/photo-products?transitionCode=abc')).toEqual({ code: 'abc', landing: '/photo-products' })
  })

  it('ignores pages without a code, and a page whose own query says code (the gift and invite codes)', () => {
    expect(at('/photo-products')).toBeNull()
    expect(at('/egifts/redeem?code=KEEP-7KQ3-XP9D-2M4R')).toBeNull()
  })
})
