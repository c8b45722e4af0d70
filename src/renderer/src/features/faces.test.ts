import { describe, expect, it } from 'vitest'

// A feature's face (its index.ts) offers components, actions, read hooks and events; a store
// handed out there would let another feature dispatch into it or read all of its state, which
// is the coupling the faces exist to prevent. Lint sees only import paths, so this looks at what
// each face actually exports.
const faces = import.meta.glob<Record<string, unknown>>('./*/index.ts', { eager: true })

/** A zustand store: a hook that also carries its store's getState, setState and subscribe. */
function isStore(value: unknown): boolean {
  return (
    typeof value === 'function' &&
    typeof (value as { getState?: unknown }).getState === 'function' &&
    typeof (value as { setState?: unknown }).setState === 'function'
  )
}

describe("the features' faces", () => {
  it('are found, one per feature folder', () => {
    expect(Object.keys(faces).length).toBeGreaterThan(20)
  })

  it('hand out no store: other features read through hooks and change through actions', () => {
    const stores = Object.entries(faces).flatMap(([face, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => isStore(value))
        .map(([name]) => `${face}: ${name}`)
    )
    expect(stores).toEqual([])
  })
})
