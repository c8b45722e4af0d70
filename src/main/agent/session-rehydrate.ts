import type { TodoItem, ToolCallView, TranscriptItem } from '../../shared/domain'
import type { ChatMessage, ModelToolCall } from '../providers/provider'
import type { StoredEvent } from '../store/session-store'
import type { BranchTree } from './branch-tree'
import { summaryMessage } from './compaction'
import { foldItem, INTERRUPTED_CALL, planReplay, shapeOf } from './session-replay'
import { userChatMessage } from './user-message'

export { BRANCH_CHOSEN, INTERRUPTED } from './session-replay'

/** A session's state as its events leave it. */
export interface Rehydrated {
  /** The conversation as shown: the branch the person last chose (see BranchTree). */
  transcript: TranscriptItem[]
  /** Every item of every branch, in the order they came. */
  items: TranscriptItem[]
  branches: BranchTree
  todos: TodoItem[]
}

/**
 * The transcript a session's events describe: each item in the order it first appeared, in the
 * state its latest event gave it (a reply's deltas after that state added to its text). A turn
 * that never ended (the app was killed mid-turn) is closed with a turn end whose stop reason is
 * `interrupted`, placed after its last item; a reply cut off mid-stream keeps the text saved so
 * far, and calls left running or waiting for approval are shown as failed, saying they were
 * interrupted. The person's choices of branch are replayed where they were made, so each item
 * lands on the branch it was added to. (The structure comes from planReplay, which a long
 * session's first screen also reads without the bodies of the items it does not show.)
 */
export function rehydrate(events: readonly StoredEvent[]): Rehydrated {
  const { items: planned, branches, todos } = planReplay(events.map(shapeOf))
  const path = new Set(branches.path())
  const items: TranscriptItem[] = []
  const transcript: TranscriptItem[] = []
  for (const entry of planned) {
    const item = foldItem(entry, (position) => events[position])
    items.push(item)
    if (branches.shows(entry.key, path)) transcript.push(item)
  }
  return { transcript, items, branches, todos }
}

/**
 * The provider-neutral history a transcript stands for, so a resumed session's model sees the
 * conversation as it last did: a user item is a user message; a reply with the tool calls after it
 * is an assistant message with those calls, then one tool message with their results. After a
 * compaction that is its summary, then what the compaction kept: the person's message it was made
 * in and everything after it (as compactHistory keeps them).
 */
export function historyFromTranscript(transcript: readonly TranscriptItem[]): ChatMessage[] {
  const last = transcript.findLastIndex((item) => item.kind === 'compaction')
  const compaction = transcript[last]
  if (compaction?.kind !== 'compaction') return messagesFrom(transcript)
  const kept = transcript.slice(0, last).findLastIndex((item) => item.kind === 'user')
  return [
    summaryMessage(compaction.summary, compaction.carried),
    ...messagesFrom(transcript.slice(kept < 0 ? last + 1 : kept))
  ]
}

function messagesFrom(transcript: readonly TranscriptItem[]): ChatMessage[] {
  const history: ChatMessage[] = []
  let index = 0
  while (index < transcript.length) {
    const item = transcript[index++]
    if (!item) break
    if (item.kind === 'user') history.push(userChatMessage(item.text, item.attachments))
    if (item.kind !== 'assistant') continue
    // A reply cut off and then retried: the model's history holds only the retry's (turn-retry.ts).
    if (item.interrupted) continue
    const calls: ToolCallView[] = []
    while (transcript[index]?.kind === 'tool') {
      const next = transcript[index++]
      if (next?.kind === 'tool') calls.push(next.call)
    }
    if (!item.text && calls.length === 0) continue
    history.push({
      role: 'assistant',
      text: item.text,
      toolCalls: calls.map(modelCall),
      ...(item.thinking ? { thinking: item.thinking } : {})
    })
    if (calls.length === 0) continue
    history.push({
      role: 'tool',
      results: calls.map((call) => ({
        callId: call.wireId ?? call.id,
        name: call.name,
        content: call.output?.content ?? [{ type: 'text', text: INTERRUPTED_CALL }],
        isError: call.output?.isError ?? true
      }))
    })
  }
  return history
}

function modelCall(call: ToolCallView): ModelToolCall {
  const input = typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {})
  // The provider's own id: the call's identity in the session means nothing to it.
  return { id: call.wireId ?? call.id, name: call.name, input }
}
