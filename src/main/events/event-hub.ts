import type { EventName, EventPayload } from '../../shared/contract'
import type { EventFrame } from '../../shared/contract/bridge'

export type EventListener = (frame: EventFrame) => void

/** Fans every event of the core out to whoever listens: windows, browser tabs, the CLI. */
export class EventHub {
  private readonly listeners = new Set<EventListener>()

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Hears one event, its payload typed: for the core's own parts that follow another's events. */
  on<N extends EventName>(event: N, listener: (payload: EventPayload<N>) => void): () => void {
    return this.subscribe((frame) => {
      if (frame.event === event) listener(frame.payload as EventPayload<N>)
    })
  }

  emit<N extends EventName>(event: N, payload: EventPayload<N>): void {
    for (const listener of [...this.listeners]) {
      try {
        listener({ event, payload })
      } catch (error) {
        // One broken listener (a closed socket, say) must not stop the others hearing it.
        console.error(`event listener failed on ${event}:`, error)
      }
    }
  }
}
