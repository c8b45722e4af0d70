import type { TodoItem, TranscriptItem } from '../../shared/domain'
import { totalsOf, type SessionTotals } from '../../shared/meters'
import { DELTA } from '../store/session-log'
import type { OutlineRow, SessionStore, StoredEvent } from '../store/session-store'
import type { BranchSiblings } from './branch-tree'
import { transcriptKey } from './session'
import {
  foldItem,
  planReplay,
  shapeOf,
  shownItems,
  type EventShape,
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
  /** The session's events other than items and deltas, whole (its recorded profile, trust). */
  events: StoredEvent[]
}

/**
 * The newest `tail` items of a recorded session's branch shown, with what a window shows beside
 * them, from the log's outline (see SessionLog.outline) and the rows of those items alone: the
 * same structure as rehydrate (planReplay), so the branch, the count, the interrupted turns and
 * the meters are those of the whole session, while the bodies of the replies and calls it does
 * not show stay unread. Null when an item read does not match its row (a log edited by hand):
 * the caller then loads the whole session, which says what is wrong with it.
 */
export function peekSession(
  store: SessionStore,
  sessionId: string,
  tail: number
): SessionPeek | null {
  return store.read(() => {
    const outline = store.outline(sessionId)
    const plan = plans.get(outline) ?? planReplay(outline.map(shapeOfRow))
    plans.set(outline, plan)
    const shown = shownItems(plan)
    const wanted = shown.slice(-tail)
    const seqs = wanted.flatMap((item) => item.rows.map((position) => outline[position]?.seq ?? -1))
    const bySeq = new Map(store.rows(sessionId, seqs).map((event) => [event.seq, event]))
    const transcript = wanted.map((item) =>
      foldItem(item, (position) => bySeq.get(outline[position]?.seq ?? -1))
    )
    if (transcript.some((item, index) => transcriptKey(item) !== wanted[index]?.key)) return null
    // Turn ends are whole in the outline: the meters need no other rows.
    const ends = plan.items.filter((item) => item.kind === 'turn-end')
    const outlined = (position: number): StoredEvent | undefined => {
      const row = outline[position]
      return row && asEvent(row)
    }
    return {
      transcript,
      total: shown.length,
      messageCount: shown.filter((item) => item.kind === 'user' || item.kind === 'assistant')
        .length,
      totals: totalsOf(ends.map((item) => foldItem(item, outlined))),
      todos: plan.todos.map((item) => ({ ...item })),
      branches: plan.branches.branchPoints(),
      events: outline
        .filter((row) => row.kind !== 'transcript.item' && row.kind !== DELTA)
        .map(asEvent)
    }
  })
}

/** The plan of an outline the store keeps (see SessionLog.outline), while it keeps it. */
const plans = new WeakMap<readonly OutlineRow[], ReplayPlan>()

/** An outline row as an event; a body left out reads as an empty payload. */
function asEvent(row: OutlineRow): StoredEvent {
  return { seq: row.seq, at: row.at, kind: row.kind, key: row.key, payload: row.payload ?? {} }
}

function shapeOfRow(row: OutlineRow): EventShape {
  if (row.payload !== null || row.kind !== 'transcript.item' || row.key === null) {
    return shapeOf(asEvent(row))
  }
  // A reply or a call (see SessionLog.outline): its kind is its key's prefix.
  const kind = row.key.startsWith('tool:') ? 'tool' : 'assistant'
  return { at: row.at, kind: row.kind, key: row.key, item: { kind, turnId: row.turnId } }
}
