import {
  RpcError,
  type AnyEvent,
  type CallInput,
  type CallName,
  type CallOutput,
  type EventName,
  type EventPayload,
  type PreloadBridge
} from '../../../shared/contract'
import { onBridgeReconnect, pageBridge } from './page-bridge'
import { parseEvent, parseOutput } from './validate'

type Listener = (event: AnyEvent) => void

const listeners = new Set<Listener>()
let subscribed = false

function dispatch(event: AnyEvent): void {
  for (const listener of listeners) {
    try {
      listener(event)
    } catch (error) {
      // One broken listener must not starve the others of the event.
      console.error(`Mecatl: a listener for "${event.event}" failed`, error)
    }
  }
}

/** The page's bridge, with its events checked and handed to the listeners here. */
function getBridge(): PreloadBridge {
  const bridge = pageBridge()
  if (!subscribed) {
    subscribed = true
    bridge.subscribe((frame) => {
      const event = parseEvent(frame)
      if (event) dispatch(event)
    })
  }
  return bridge
}

/** Calls the main process; resolves with the checked output or throws an RpcError. */
export async function call<N extends CallName>(
  method: N,
  input: CallInput<N>
): Promise<CallOutput<N>> {
  let response
  try {
    response = await getBridge().call(method, input)
  } catch (error) {
    throw new RpcError('internal', error instanceof Error ? error.message : String(error))
  }
  if (!response.ok) {
    throw new RpcError(response.error.code, response.error.message, response.error.issues)
  }
  return parseOutput(method, response.result)
}

/** Every valid event, as a discriminated union on `event`. Returns the disposer. */
export function subscribe(listener: Listener): () => void {
  getBridge()
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** One event by name, with its payload typed. Returns the disposer. */
export function onEvent<N extends EventName>(
  name: N,
  handler: (payload: EventPayload<N>) => void
): () => void {
  return subscribe((event) => {
    if (event.event === name) handler(event.payload as EventPayload<N>)
  })
}

/** Runs after the socket comes back, so stores can re-read what they may have missed. */
export function onReconnect(listener: () => void): () => void {
  getBridge()
  return onBridgeReconnect(listener)
}
