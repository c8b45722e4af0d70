import type { TodoItem, TranscriptItem } from '../../shared/domain'
import { totalsOf, type SessionTotals } from '../../shared/meters'
import type { OutlineRow, SessionStore, StoredEvent } from '../store/session-store'
import type { BranchSiblings } from './branch-tree'
import { transcriptKey } from './session'
import {
  foldItem,
  planReplay,
  shapeOf,
  shownItems,
  type EventShape,
  type PlannedItem,
  type ReplayPlan
} from './session-replay'

/** A recorded session's first screen, read without loading the whole session. */
export interface SessionPeek {
  /** The newest items of the branch shown, as a loaded session would give them. */
  transcript: TranscriptItem[]
  /** How many items the branch shown holds. */
  total: number
  /** The messages (the person's and the replies) of the branch shown. */
  messageCount: number
  /** The spend of every branch's turns, as the loaded session would count it. */
  totals: SessionTotals
  todos: TodoItem[]
  branches: BranchSiblings[]
  /** The session's `session.updated` events, whole (its recorded profile, folder trust). */
  updates: StoredEvent[]
}

/**
 * The newest `tail` items of a recorded session's branch shown, with what a window shows beside
 * them, as a loaded session would give them (the same structure as rehydrate: planReplay), while
 * the bodies of the replies and calls it does not show stay unread. A session with no branches
 * is read from the turn that holds its `tail`-th newest item on, the rest only counted (see
 * TailOutline), so opening it costs what opening a short one does; any other is planned from its
 * whole outline (see SessionLog.outline). Null when an item read does not match its row (a log
 * edited by hand): the caller then loads the whole session, which says what is wrong with it.
 */
export function peekSession(
  store: SessionStore,
  sessionId: string,
  tail: number
): SessionPeek | null {
  return store.read(() => {
    const cut = store.tailOutline(sessionId, tail)
    if (!cut) return peekWhole(store, sessionId, tail)
    // With no branches each message follows the one before it: the tail's first follows one
    // not in it, so here each is placed at the end of the conversation, where it is.
    const shapes = cut.rows.map((row) => followingTip(shapeOfRow(row)))
    const plan = planReplay(shapes, cut.lastAt)
    const shown = shownItems(plan)
    const transcript = itemsOf(store, sessionId, cut.rows, shown.slice(-tail))
    return (
      transcript && {
        transcript,
        total: cut.before.items + shown.length,
        messageCount: cut.before.messages + messagesOf(shown),
        totals: store.totals(sessionId),
        todos: ((cut.todos?.payload.items ?? []) as TodoItem[]).map((item) => ({ ...item })),
        branches: [],
        updates: cut.updates
      }
    )
  })
}

function peekWhole(store: SessionStore, sessionId: string, tail: number): SessionPeek | null {
  const outline = store.outline(sessionId)
  const plan = plans.get(outline) ?? planReplay(outline.map(shapeOfRow))
  plans.set(outline, plan)
  const shown = shownItems(plan)
  const transcript = itemsOf(store, sessionId, outline, shown.slice(-tail))
  if (!transcript) return null
  // Turn ends are whole in the outline: the meters need no other rows.
  const ends = plan.items.filter((item) => item.kind === 'turn-end')
  const outlined = (position: number): StoredEvent | undefined => {
    const row = outline[position]
    return row && asEvent(row)
  }
  return {
    transcript,
    total: shown.length,
    messageCount: messagesOf(shown),
    totals: totalsOf(ends.map((item) => foldItem(item, outlined))),
    todos: plan.todos.map((item) => ({ ...item })),
    branches: plan.branches.branchPoints(),
    updates: outline.filter((row) => row.kind === 'session.updated').map(asEvent)
  }
}

/** The planned items read whole; null when one does not match its row (see peekSession). */
function itemsOf(
  store: SessionStore,
  sessionId: string,
  outline: readonly OutlineRow[],
  wanted: readonly PlannedItem[]
): TranscriptItem[] | null {
  const seqs = wanted.flatMap((item) => item.rows.map((position) => outline[position]?.seq ?? -1))
  const bySeq = new Map(store.rows(sessionId, seqs).map((event) => [event.seq, event]))
  const transcript = wanted.map((item) =>
    foldItem(item, (position) => bySeq.get(outline[position]?.seq ?? -1))
  )
  return transcript.some((item, index) => transcriptKey(item) !== wanted[index]?.key)
    ? null
    : transcript
}

function messagesOf(items: readonly PlannedItem[]): number {
  return items.filter((item) => item.kind === 'user' || item.kind === 'assistant').length
}

/** The plan of an outline the store keeps (see SessionLog.outline), while it keeps it. */
const plans = new WeakMap<readonly OutlineRow[], ReplayPlan>()

/** An outline row as an event; a body left out reads as an empty payload. */
function asEvent(row: OutlineRow): StoredEvent {
  return { seq: row.seq, at: row.at, kind: row.kind, key: row.key, payload: row.payload ?? {} }
}

function followingTip(shape: EventShape): EventShape {
  if (shape.item?.kind !== 'user') return shape
  const { parent: _parent, ...item } = shape.item
  return { ...shape, item }
}

function shapeOfRow(row: OutlineRow): EventShape {
  if (row.payload !== null || row.kind !== 'transcript.item' || row.key === null) {
    return shapeOf(asEvent(row))
  }
  // A reply or a call (see SessionLog.outline): its kind is its key's prefix.
  const kind = row.key.startsWith('tool:') ? 'tool' : 'assistant'
  return { at: row.at, kind: row.kind, key: row.key, item: { kind, turnId: row.turnId } }
}
