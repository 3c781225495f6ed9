import { use, type ComponentType } from 'react'

/** A promise that says how it settled, the way React's `use` reads it: a settled one renders without suspending. */
type Loading<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown }

export type LazyPart<P> = ComponentType<P> & {
  /** Fetches the part's code, once; a route's loader calls it so that a client navigation shows the part at once. */
  preload: () => Promise<unknown>
  /**
   * Settles when the part's code is in if the server painted the part (and on the server), at once otherwise. The module
   * that defines the part awaits it at its top level, so the route's chunk, and with it the page's hydration, waits for it.
   */
  ready: Promise<unknown>
}

/**
 * A part of a page that only some shoppers see (a signed-in shopper's form, a load that failed), whose code is not part
 * of the page's first load unless the page shows it (decision 049). The part's outermost element carries
 * `data-lazy-part={marker}`: should the server have painted it, its code is fetched before the page hydrates, so the
 * part is never on screen without working (a field typed into before hydration would lose what was typed). Otherwise it
 * is fetched when the part is first rendered, or earlier by `preload`. Rendering it suspends until then.
 */
export function lazyPart<P extends object>(marker: string, load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Loading<ComponentType<P>> | undefined
  const preload = () => {
    if (!loading) {
      const current: Loading<ComponentType<P>> = load()
      current.status = 'pending'
      current.then(
        (value) => {
          current.status = 'fulfilled'
          current.value = value
        },
        (reason: unknown) => {
          current.status = 'rejected'
          current.reason = reason
        },
      )
      loading = current
    }
    return loading
  }
  function Part(props: P) {
    const current = preload()
    if (current.status === 'rejected') {
      // Not fetched (offline, a new deploy): the route's error page says so, and its Try again fetches it afresh.
      loading = undefined
      throw current.reason
    }
    const Component = use<ComponentType<P>>(current as Promise<ComponentType<P>>)
    return <Component {...props} />
  }
  const painted = typeof document === 'undefined' || document.querySelector(`[data-lazy-part="${marker}"]`) !== null
  return Object.assign(Part, { preload, ready: painted ? preload().catch(() => undefined) : Promise.resolve() })
}
