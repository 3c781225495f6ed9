/**
 * A failed read is toasted only when the page already had its data (a background refetch failed and the page still
 * shows what it had). A first load that fails is the page's to show, and every page shows it where the data would
 * be, with its own Try again: a toast as well said it twice (issue 32).
 */
export function toastQueryError(error: unknown, query: { state: { data: unknown } }, toast: (error: unknown) => void) {
  if (query.state.data === undefined) return
  toast(error)
}

/**
 * A failed change is toasted by the client's global handler unless the mutation says it tells the shopper itself
 * (`meta: { ownsErrors: true }`, e.g. the designer's preview toast with its Retry): one error, one toast.
 */
export function toastMutationError(error: unknown, mutation: { meta?: Record<string, unknown> }, toast: (error: unknown) => void) {
  if (mutation.meta?.ownsErrors === true) return
  toast(error)
}
