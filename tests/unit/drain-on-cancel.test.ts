import { describe, expect, it } from 'vitest'
import { drainOnCancel } from '../../app/lib/drain-on-cancel'

describe('a wrapped page body left mid-stream', () => {
  it('reads its source to the end instead of cancelling it', async () => {
    let cancelled = false
    let pulled = 0
    const source = new ReadableStream<number>({
      pull(controller) {
        pulled++
        if (pulled > 5) controller.close()
        else controller.enqueue(pulled)
      },
      cancel() {
        cancelled = true
      },
    })
    const wrapped = drainOnCancel(source).pipeThrough(new TransformStream<number, number>())
    const reader = wrapped.getReader()
    expect((await reader.read()).value).toBe(1)
    await reader.cancel('the shopper left')
    await expect.poll(() => pulled).toBe(6)
    expect(cancelled).toBe(false)
  })

  it('passes everything through when read to the end', async () => {
    const source = new ReadableStream<string>({
      start(controller) {
        for (const part of ['<html>', '<body>', '</html>']) controller.enqueue(part)
        controller.close()
      },
    })
    const parts: string[] = []
    const reader = drainOnCancel(source).getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value)
    expect(parts).toEqual(['<html>', '<body>', '</html>'])
  })
})
