import { clientFrameSchema, type ServerFrame } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import type { EventHub } from './event-hub'
import type { Router } from './router'

const MAX_QUEUED_EVENTS = 10_000

export interface Connection {
  /** Feed one frame the client sent (already decoded from the wire). */
  receive(frame: unknown): void
  close(): void
}

/**
 * One client of the router over any transport: answers its calls and forwards the hub's events,
 * holding them back until the client says it is ready so none are lost while a page loads.
 */
export function openConnection(
  router: Router,
  hub: EventHub,
  caller: string,
  send: (frame: ServerFrame) => void
): Connection {
  let ready = false
  const queue: EventFrame[] = []
  const unsubscribe = hub.subscribe((frame) => {
    if (ready) send({ kind: 'event', ...frame })
    else if (queue.length < MAX_QUEUED_EVENTS) queue.push(frame)
  })

  return {
    receive(raw) {
      const parsed = clientFrameSchema.safeParse(raw)
      if (!parsed.success) return
      const frame = parsed.data
      if (frame.kind === 'ready') {
        if (ready) return
        ready = true
        for (const event of queue.splice(0)) send({ kind: 'event', ...event })
        return
      }
      void router.handle(frame.method, frame.input, { caller }).then((response) => {
        send(
          response.ok
            ? { kind: 'result', id: frame.id, result: response.result }
            : { kind: 'error', id: frame.id, error: response.error }
        )
      })
    },
    close() {
      unsubscribe()
      queue.length = 0
    }
  }
}
