// The shape of the core's side of the contract, as types only: the api files write their
// handlers against it without importing the router (main/rpc), which only dispatches to them.
import type { CallInput, CallName, CallOutput, slices, SliceName } from './contract'

/** Who made a call: transports fill this in so handlers can tell windows apart. */
export interface CallContext {
  /** The transport's name for the caller, e.g. `ws:3` or `ipc:window-2`. */
  caller: string
}

/** The handler of one call. */
export type Handler<N extends CallName> = (
  input: CallInput<N>,
  ctx: CallContext
) => Promise<CallOutput<N>>

/** One handler per contract call; a missing one is a compile error. */
export type Handlers = { [N in CallName]: Handler<N> }

/** The handlers of one slice's calls: what `src/main/api/<feature>.ts` returns. */
export type SliceHandlers<S extends SliceName> = {
  [N in keyof (typeof slices)[S]['calls'] & CallName]: Handler<N>
}
