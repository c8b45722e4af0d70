import { create, type StoreApi, type UseBoundStore } from 'zustand'

export interface ReducerStore<S, A> {
  state: S
  dispatch: (action: A) => void
}

/**
 * A zustand store whose only logic is a pure reducer, so the logic is tested without React and
 * components read slices with selectors.
 */
export function createReducerStore<S, A>(
  reducer: (state: S, action: A) => S,
  initial: S
): UseBoundStore<StoreApi<ReducerStore<S, A>>> {
  return create<ReducerStore<S, A>>((set) => ({
    state: initial,
    dispatch: (action) => set((store) => ({ state: reducer(store.state, action) }))
  }))
}
