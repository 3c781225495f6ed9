import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { toastMutationError, toastQueryError } from '../../app/lib/query-errors'

/** Issue 32: a failed first load is the page's to show (its panel); only a failed refetch of data on screen is toasted. */
describe('which failed reads are toasted', () => {
  const client = () => {
    const toasted: unknown[] = []
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false } },
      queryCache: new QueryCache({ onError: (error, query) => toastQueryError(error, query, (e) => toasted.push(e)) }),
    })
    return { queryClient, toasted }
  }
  const failing = () => Promise.reject(new Error('The album service is unavailable'))

  it('not a first load that fails: the page shows that failure itself', async () => {
    const { queryClient, toasted } = client()
    await expect(queryClient.fetchQuery({ queryKey: ['cart'], queryFn: failing })).rejects.toThrow()
    expect(toasted).toEqual([])
  })

  it('a refetch that fails while the page still shows the data it had', async () => {
    const { queryClient, toasted } = client()
    await queryClient.fetchQuery({ queryKey: ['cart'], queryFn: () => Promise.resolve({ items: [] }) })
    await expect(queryClient.fetchQuery({ queryKey: ['cart'], queryFn: failing, staleTime: 0 })).rejects.toThrow()
    expect(toasted).toHaveLength(1)
    expect(toasted[0]).toBeInstanceOf(Error)
  })
})

/** One error, one toast: a change whose own handler tells the shopper (the designer's preview, with its Retry) is not toasted again. */
describe('which failed changes are toasted', () => {
  const client = () => {
    const toasted: unknown[] = []
    const queryClient = new QueryClient({
      mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => toastMutationError(error, mutation, (e) => toasted.push(e)) }),
    })
    return { queryClient, toasted }
  }
  const failing = () => Promise.reject(new Error('The album service is unavailable'))

  it('a change that says nothing itself is toasted by the global handler', async () => {
    const { queryClient, toasted } = client()
    await expect(queryClient.getMutationCache().build(queryClient, { mutationFn: failing }).execute(undefined)).rejects.toThrow()
    expect(toasted).toHaveLength(1)
  })

  it('a change that owns its errors is not toasted twice', async () => {
    const { queryClient, toasted } = client()
    await expect(
      queryClient
        .getMutationCache()
        .build(queryClient, { mutationFn: failing, meta: { ownsErrors: true } })
        .execute(undefined),
    ).rejects.toThrow()
    expect(toasted).toEqual([])
  })
})
