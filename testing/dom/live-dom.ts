// Rendering React into the page of a happy-dom test (`// @vitest-environment happy-dom`), with
// every update flushed inside act(), for tests of what a component does when clicked, typed into
// or closed, not only the markup it renders. Compiled with the window (tsconfig.web.json), whose
// DOM types it needs.
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'

// React checks this to know that the test flushes its updates inside act().
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let root: Root | null = null

/** Renders `node` in the page, in place of what the last call rendered. */
export function show(node: ReactNode): void {
  act(() => {
    if (!root) {
      const host = document.createElement('div')
      document.body.append(host)
      root = createRoot(host)
    }
    root.render(node)
  })
}

/** Unmounts what `show` rendered (its effects' clean-ups run). */
export function unmount(): void {
  act(() => root?.unmount())
  root = null
}

/** For afterEach: nothing of one test is left on the page for the next. */
export function clearPage(): void {
  unmount()
  document.body.replaceChildren()
}
