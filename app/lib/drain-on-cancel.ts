/**
 * A page's body, shielded from cancellation. When a shopper leaves a page mid-stream, the server cancels
 * the response body. A stream we wrap (the first-paint rewrite, compression) passes that cancel on to the
 * renderer's stream, and Node's undici then closes that already-cancelled stream from a queued microtask,
 * an uncaught "ReadableStream is already closed" that stops the whole process. So a wrapped body never
 * cancels its source: on cancel it reads the source to its end and drops it, as the server would have
 * without our wrapper.
 */
export function drainOnCancel<T>(source: ReadableStream<T>): ReadableStream<T> {
  const reader = source.getReader()
  return new ReadableStream<T>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel() {
      void (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // The source failed while nobody was listening: nothing to tell.
        }
      })()
    },
  })
}
