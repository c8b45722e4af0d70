import type { ToolCallView, ToolDisplay } from '../../shared/domain'
import type { EventHub } from '../events/event-hub'
import type { Session } from './session'
import { announceItem } from './turn-sink'

/**
 * Shows a finished call's card again, changed (a parallel run once a branch is taken, a job's
 * files once it ends), recorded like any transcript change so a reloaded session shows it too.
 */
export function updateCard(
  session: Session,
  hub: EventHub,
  callId: string,
  change: (call: ToolCallView) => ToolCallView | null
): void {
  const item = session.transcript().find((i) => i.kind === 'tool' && i.call.id === callId)
  if (item?.kind !== 'tool') return
  const call = change(item.call)
  if (!call) return
  const next = { ...item, call }
  session.upsert(next)
  announceItem(hub, session, next)
}

/** A finished call's card with a new display. */
export function updateCardDisplay(
  session: Session,
  hub: EventHub,
  callId: string,
  display: ToolDisplay
): void {
  updateCard(session, hub, callId, (call) =>
    call.output ? { ...call, output: { ...call.output, display } } : null
  )
}
