import { useSyncExternalStore, type ComponentType, type JSX } from 'react'

type PartState<P> =
  | { status: 'idle' | 'loading' }
  | { status: 'ready'; Component: ComponentType<P> }
  | { status: 'failed' }

/** A component whose code is a chunk of its own, loaded the first time it renders. */
export type LazyPart<P extends object> = ((props: P) => JSX.Element) & {
  /** Starts loading (once); resolves when the part is ready or has failed to load. */
  load(): Promise<void>
}

/**
 * A part of the window that is a chunk of its own (the terminal, the Markdown of replies, the
 * Settings page and its sections): the first render starts loading it and shows `loading`, which
 * should have the part's shape; the part replaces it as soon as it has arrived, and once loaded
 * it renders at once. Should the chunk not load (the browser-mode server has gone, the install is
 * broken), `failed` shows instead, saying so: the window has no error boundary, and a throw would
 * take it down.
 *
 * Not React.lazy with Suspense: a lazy component suspends on its first render even when its code
 * has already arrived, and React then holds back what a fallback stood in for by up to 300 ms,
 * which a first click and a window's first paint would pay each time.
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  shown: { loading: ComponentType<P>; failed: ComponentType<P> }
): LazyPart<P> {
  let state: PartState<P> = { status: 'idle' }
  let loading: Promise<void> | null = null
  const listeners = new Set<() => void>()
  const settle = (next: PartState<P>): void => {
    state = next
    for (const listener of listeners) listener()
  }
  const start = (): Promise<void> =>
    (loading ??= (() => {
      // Not announced: nothing shows differently while loading than before.
      state = { status: 'loading' }
      return load().then(
        (Component) => settle({ status: 'ready', Component }),
        (error: unknown) => {
          console.error('A part of the window could not be loaded:', error)
          settle({ status: 'failed' })
        }
      )
    })())
  const subscribe = (listener: () => void): (() => void) => {
    listeners.add(listener)
    return () => listeners.delete(listener)
  }
  const current = (): PartState<P> => state

  function Part(props: P): JSX.Element {
    const now = useSyncExternalStore(subscribe, current)
    if (now.status === 'ready') return <now.Component {...props} />
    if (now.status === 'failed') return <shown.failed {...props} />
    // Starting a load is idempotent and changes nothing rendered: safe during render.
    void start()
    return <shown.loading {...props} />
  }
  return Object.assign(Part, { load: start })
}
