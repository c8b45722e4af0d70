import { z } from 'zod'
import { clientFrameSchema, type RpcErrorBody, type ServerFrame } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'
import type { EventHub } from '../events/event-hub'
import type { Router } from './router'

const MAX_QUEUED_EVENTS = 10_000

export interface Connection {
  /**
   * Feed one frame the client sent (already decoded from the wire). False when it is not one of
   * the protocol's frames (answered with an error when it names a call id), so the transport can
   * say so in its log.
   */
  receive(frame: unknown): boolean
  close(): void
}

/** A call frame we cannot read still gets an answer when it carries an id the caller waits on. */
const callIdSchema = z.object({ kind: z.literal('call'), id: z.number().int() })

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * One client of the router over any transport: answers its calls and forwards the hub's events,
 * holding them back until the client says it is ready so none are lost while a page loads.
 * Nothing a call does, nor a `send` that throws, escapes as a rejected promise: `report` hears
 * of it, and the caller gets an error answer when one can still be sent.
 */
export function openConnection(
  router: Router,
  hub: EventHub,
  caller: string,
  send: (frame: ServerFrame) => void,
  report: (line: string) => void = (line) => console.error(line)
): Connection {
  let ready = false
  const queue: EventFrame[] = []
  const unsubscribe = hub.subscribe((frame) => {
    if (ready) send({ kind: 'event', ...frame })
    else if (queue.length < MAX_QUEUED_EVENTS) queue.push(frame)
  })

  /** Sends an error answer; a transport too broken to carry even that is only reported. */
  const answer = (id: number, what: string, error: RpcErrorBody): void => {
    if (error.code === 'internal') safeReport(`${caller}: ${error.message}`)
    try {
      send({ kind: 'error', id, error })
    } catch (sendError) {
      safeReport(`${caller}: could not answer ${what} (id ${id}): ${describeError(sendError)}`)
    }
  }
  const safeReport = (line: string): void => {
    try {
      report(line)
    } catch {
      // Reporting is best effort; it must never become the failure.
    }
  }

  return {
    receive(raw) {
      const parsed = clientFrameSchema.safeParse(raw)
      if (!parsed.success) {
        const call = callIdSchema.safeParse(raw)
        if (call.success) {
          const message = 'not a call frame: expected {kind: "call", id, method, input}'
          answer(call.data.id, 'frame', { code: 'invalid_input', message })
        }
        return false
      }
      const frame = parsed.data
      if (frame.kind === 'ready') {
        if (ready) return true
        ready = true
        for (const event of queue.splice(0)) send({ kind: 'event', ...event })
        return true
      }
      const { id, method } = frame
      router
        .handle(method, frame.input, { caller })
        .then((response) => {
          send(
            response.ok
              ? { kind: 'result', id, result: response.result }
              : { kind: 'error', id, error: response.error }
          )
        })
        .catch((error: unknown) => {
          const message = `${method} answered, but the answer could not be sent: ${describeError(error)}`
          answer(id, method, { code: 'internal', message })
        })
      return true
    },
    close() {
      unsubscribe()
      queue.length = 0
    }
  }
}
