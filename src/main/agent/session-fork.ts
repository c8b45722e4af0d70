import { RpcError } from '../../shared/contract'
import type { TranscriptItem } from '../../shared/domain'
import { transcriptKey } from './session'

/**
 * The transcript up to and including the item (with `before`, up to the item only): for a
 * reply, also its tool calls and the end of its turn when that follows. A turn left open by the
 * cut is closed as `forked`, so the new session does not read as interrupted.
 */
export function forkedTranscript(
  transcript: readonly TranscriptItem[],
  itemKey: string,
  before = false
): TranscriptItem[] {
  const index = transcript.findIndex((item) => transcriptKey(item) === itemKey)
  const cut = transcript[index]
  if (!cut) throw new RpcError('not_found', `there is no message ${itemKey} in this session`)
  let end = before ? index : index + 1
  if (cut.kind === 'assistant' && !before) {
    while (transcript[end]?.kind === 'tool') end++
    const next = transcript[end]
    if (next?.kind === 'turn-end' && next.turnId === cut.turnId) end++
  }
  const kept = transcript.slice(0, end)
  const last = kept.at(-1)
  if (last && (last.kind === 'assistant' || last.kind === 'tool')) {
    kept.push({
      kind: 'turn-end',
      turnId: last.turnId,
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
      stopReason: 'forked',
      error: null,
      at: Date.now()
    })
  }
  return kept
}
