import type { StoredEvent } from '../store/session-store'
import { transcriptKey } from './session'
import { BRANCH_CHOSEN, rehydrate } from './session-rehydrate'

/**
 * A session's events without those of the branches not shown (see BranchTree): an export
 * follows the conversation the person is looking at. An event belongs to a hidden branch when
 * it is about a hidden item (by key), a hidden item's turn, or a hidden call's approval or
 * question. The choices of branch go too: the export holds one branch.
 */
export function shownEvents(events: readonly StoredEvent[]): StoredEvent[] {
  const { items, transcript } = rehydrate(events)
  if (items.length === transcript.length) return events.filter((e) => e.kind !== BRANCH_CHOSEN)
  const shownKeys = new Set(transcript.map(transcriptKey))
  const hiddenKeys = new Set<string>()
  const hiddenTurns = new Set<string>()
  const hiddenCalls = new Set<string>()
  for (const item of items) {
    const key = transcriptKey(item)
    if (shownKeys.has(key)) continue
    hiddenKeys.add(key)
    if ('turnId' in item) hiddenTurns.add(item.turnId)
    if (item.kind === 'tool') hiddenCalls.add(item.call.id)
  }
  // A turn shown on one branch is never hidden because of another's items.
  for (const item of transcript) if ('turnId' in item) hiddenTurns.delete(item.turnId)
  const hiddenAsks = new Set<string>()
  return events.filter((event) => {
    const p = event.payload
    if (event.kind === BRANCH_CHOSEN) return false
    if (event.key !== null && hiddenKeys.has(event.key)) return false
    if (typeof p.turnId === 'string' && hiddenTurns.has(p.turnId)) return false
    if (typeof p.callId === 'string' && hiddenCalls.has(p.callId)) {
      if (typeof p.approvalId === 'string') hiddenAsks.add(p.approvalId)
      if (typeof p.questionId === 'string') hiddenAsks.add(p.questionId)
      return false
    }
    const ask = typeof p.approvalId === 'string' ? p.approvalId : p.questionId
    return !(typeof ask === 'string' && hiddenAsks.has(ask))
  })
}
