import type { TodoItem, ToolCallView, TranscriptItem } from '../../shared/domain'
import type { ChatMessage, ModelToolCall } from '../providers/provider'
import type { StoredEvent } from '../store/session-store'
import { BranchTree } from './branch-tree'
import { transcriptKey } from './session'
import { summaryMessage } from './compaction'
import { userChatMessage } from './user-message'

/** Why a turn has no end of its own: the app stopped (killed, crashed) while it ran. */
export const INTERRUPTED = 'interrupted'

const INTERRUPTED_CALL =
  'Interrupted: Mecatl stopped before this call finished, so its result is unknown. Check its effects before running it again.'

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
 * lands on the branch it was added to.
 */
export function rehydrate(events: readonly StoredEvent[]): Rehydrated {
  const branches = new BranchTree()
  const items: TranscriptItem[] = []
  const at = new Map<string, number>()
  /** The turn each item belongs to, by position: user messages carry no turn id. */
  const turnOf: (string | null)[] = []
  const ended = new Set<string>()
  let todos: TodoItem[] = []
  let currentTurn: string | null = null
  let lastAt = 0
  for (const event of events) {
    lastAt = Math.max(lastAt, event.at)
    if (event.kind === 'turn.started') currentTurn = String(event.payload.turnId)
    if (event.kind === 'todo.updated') todos = event.payload.items as TodoItem[]
    if (event.kind === BRANCH_CHOSEN && typeof event.payload.child === 'string') {
      branches.choose(event.payload.child)
    }
    if (event.kind === 'message.delta') {
      addDelta(items, at, event)
      continue
    }
    if (event.kind !== 'transcript.item') continue
    const item = event.payload.item as TranscriptItem
    const key = event.key ?? transcriptKey(item)
    // A restore happens between turns, in none of them.
    const turn = item.kind === 'user' ? currentTurn : item.kind === 'restore' ? null : item.turnId
    if (item.kind === 'turn-end') ended.add(item.turnId)
    const known = at.get(key)
    if (known === undefined) {
      at.set(key, items.length)
      items.push(item)
      turnOf.push(turn)
      branches.place(key, item)
    } else {
      items[known] = item
    }
  }
  const lastIndex = new Map<string, number>()
  turnOf.forEach((turn, index) => turn !== null && lastIndex.set(turn, index))
  const all: TranscriptItem[] = []
  items.forEach((item, index) => {
    all.push(settle(item))
    const turn = turnOf[index]
    if (turn && lastIndex.get(turn) === index && !ended.has(turn)) {
      ended.add(turn)
      const closing: TranscriptItem = {
        kind: 'turn-end',
        turnId: turn,
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
        stopReason: INTERRUPTED,
        error: null,
        at: lastAt
      }
      branches.place(transcriptKey(closing), closing, branches.segmentOf(transcriptKey(item)))
      all.push(closing)
    }
  })
  const path = new Set(branches.path())
  const transcript = all.filter((item) => branches.shows(transcriptKey(item), path))
  return { transcript, items: all, branches, todos }
}

/** The recorded event of the person's choice of branch (see BranchTree): `{parent, child}`. */
export const BRANCH_CHOSEN = 'branch.selected'

/**
 * More text of a reply that was streaming when it was saved (its final state folds its deltas
 * away, so they remain only when the app stopped mid-reply). A delta of no reply is ignored.
 */
function addDelta(
  items: TranscriptItem[],
  at: ReadonlyMap<string, number>,
  event: StoredEvent
): void {
  const index = event.key === null ? undefined : at.get(event.key)
  const reply = index === undefined ? undefined : items[index]
  const delta = event.payload.delta
  if (index === undefined || reply?.kind !== 'assistant' || typeof delta !== 'string') return
  items[index] = { ...reply, text: reply.text + delta }
}

/** An item as it stands once nothing will change it any more. */
function settle(item: TranscriptItem): TranscriptItem {
  if (item.kind === 'assistant' && item.streaming) return { ...item, streaming: false }
  if (
    item.kind === 'tool' &&
    (item.call.state === 'running' || item.call.state === 'awaiting-approval')
  ) {
    return { ...item, call: interruptedCall(item.call) }
  }
  return item
}

function interruptedCall(call: ToolCallView): ToolCallView {
  return {
    ...call,
    state: 'failed',
    endedAt: call.endedAt ?? call.startedAt,
    output: { content: [{ type: 'text', text: INTERRUPTED_CALL }], isError: true, external: false }
  }
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
