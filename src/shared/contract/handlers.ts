// The shape of the core's side of the contract, as types only: feature folders write their
// handlers against it without importing the router (main/rpc), which only dispatches to them.
import type { CallInput, CallOutput } from './contract'
import type { CallName } from './names'

/** Who made a call: transports fill this in so handlers can tell windows apart. */
export interface CallContext {
  /** The transport's name for the caller, e.g. `ws:3` or `ipc:window-2`. */
  caller: string
}

/** One handler per contract call; a missing one is a compile error. */
export type Handlers = {
  [N in CallName]: (input: CallInput<N>, ctx: CallContext) => Promise<CallOutput<N>>
}
