import {
  RpcError,
  type CallInput,
  type CallName,
  type CallOutput,
  type ServerFrame
} from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import { openConnection } from './connection'
import type { EventHub } from '../events/event-hub'
import type { Router } from './router'

/** A typed client of the router, as the CLI and tests use it. */
export interface RpcClient {
  call<N extends CallName>(method: N, input: CallInput<N>): Promise<CallOutput<N>>
  subscribe(listener: (frame: EventFrame) => void): () => void
  close(): void
}

/**
 * Both ends of a transport in one process: frames are cloned and delivered asynchronously, as
 * over a real wire, so code tested through it behaves as it does behind IPC or WebSocket.
 */
export function createMemoryPair(router: Router, hub: EventHub, caller = 'memory'): RpcClient {
  let nextId = 1
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  const listeners = new Set<(frame: EventFrame) => void>()
  let closed = false

  const deliver = (frame: ServerFrame): void => {
    const copy = structuredClone(frame)
    queueMicrotask(() => {
      if (closed) return
      if (copy.kind === 'event') {
        for (const listener of [...listeners])
          listener({ event: copy.event, payload: copy.payload })
        return
      }
      const waiter = pending.get(copy.id)
      if (!waiter) return
      pending.delete(copy.id)
      if (copy.kind === 'result') waiter.resolve(copy.result)
      else waiter.reject(new RpcError(copy.error.code, copy.error.message, copy.error.issues))
    })
  }
  const connection = openConnection(router, hub, caller, deliver)
  let announced = false

  return {
    call<N extends CallName>(method: N, input: CallInput<N>): Promise<CallOutput<N>> {
      if (closed) return Promise.reject(new RpcError('internal', 'the connection is closed'))
      const id = nextId++
      return new Promise<CallOutput<N>>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
        connection.receive(structuredClone({ kind: 'call', id, method, input }))
      })
    },
    subscribe(listener) {
      listeners.add(listener)
      if (!announced) {
        announced = true
        connection.receive({ kind: 'ready' })
      }
      return () => listeners.delete(listener)
    },
    close() {
      closed = true
      connection.close()
      for (const waiter of pending.values()) waiter.reject(new RpcError('internal', 'closed'))
      pending.clear()
    }
  }
}
