import type { ToolDisplay } from '../../../shared/domain'
import type { EventHub } from '../../events/event-hub'
import type { Session } from '../session'
import { announceItem } from '../turn-sink'

/**
 * Shows a finished call's card again with a new display (a parallel run once a branch is
 * taken), recorded like any transcript change so a reloaded session shows it too.
 */
export function updateCardDisplay(
  session: Session,
  hub: EventHub,
  callId: string,
  display: ToolDisplay
): void {
  const item = session.transcript().find((i) => i.kind === 'tool' && i.call.id === callId)
  if (item?.kind !== 'tool' || !item.call.output) return
  const next = { ...item, call: { ...item.call, output: { ...item.call.output, display } } }
  session.upsert(next)
  announceItem(hub, session, next)
}
