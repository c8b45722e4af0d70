import {
  calls,
  events,
  isEventName,
  RpcError,
  type AnyEvent,
  type CallName,
  type CallOutput,
  type EventFrame
} from '../../../shared/contract'

function describe(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`)
    .join('; ')
}

/**
 * Checks an event frame against the contract. Returns null (and warns) for unknown names or
 * payloads that do not match, so a stray frame can never corrupt a store.
 */
export function parseEvent(frame: EventFrame): AnyEvent | null {
  if (!isEventName(frame.event)) {
    console.warn(`Mecatl: ignoring unknown event "${String(frame.event)}"`)
    return null
  }
  const parsed = events[frame.event].safeParse(frame.payload)
  if (!parsed.success) {
    console.warn(
      `Mecatl: ignoring "${frame.event}" with an invalid payload: ${describe(parsed.error.issues)}`
    )
    return null
  }
  return { event: frame.event, payload: parsed.data } as AnyEvent
}

/** Checks a call's result against the contract; a mismatch is a bug worth a readable error. */
export function parseOutput<N extends CallName>(method: N, result: unknown): CallOutput<N> {
  const parsed = calls[method].output.safeParse(result)
  if (!parsed.success) {
    throw new RpcError(
      'internal',
      `Mecatl answered ${method} with data this window does not understand (${describe(parsed.error.issues)}). ` +
        'The app and its window may be from different versions; restart Mecatl.'
    )
  }
  return parsed.data as CallOutput<N>
}
