import type { TodoItem, TranscriptItem } from '../../shared/domain'
import { DELTA, type StoredEvent } from '../store/session-log'
import { BranchTree } from './branch-tree'
import { transcriptKey } from './session'

/** Why a turn has no end of its own: the app stopped (killed, crashed) while it ran. */
export const INTERRUPTED = 'interrupted'

/** The recorded event of the person's choice of branch (see BranchTree): `{parent, child}`. */
export const BRANCH_CHOSEN = 'branch.selected'

/**
 * What replaying a session reads of one recorded event to place it, without a transcript item's
 * body: so the branch shown and its length can be known from a log's outline alone, and only
 * the items to show are read whole (see SessionLog.outline).
 */
export interface EventShape {
  at: number
  kind: string
  /** A transcript item's key (its row's, else its own), or a delta's reply's key. */
  key: string | null
  /** For a transcript item: its kind, its turn and (a user message) the message it follows. */
  item?: { kind: TranscriptItem['kind']; turnId?: unknown; parent?: string | null }
  /** The payload of any other event but a delta (small: a turn's start, a plan, a choice). */
  payload?: Record<string, unknown>
}

/** One item of the session, before its body is read. */
export interface PlannedItem {
  key: string
  kind: TranscriptItem['kind']
  /** Positions of the events that make its state, in order: its states, then deltas of a reply. */
  rows: number[]
  /** The turn end made for a turn that never ended (the item itself, no event makes it). */
  closing?: TranscriptItem
}

/** A session's structure as its events leave it. */
export interface ReplayPlan {
  /** Every item of every branch, in the order they came. */
  items: PlannedItem[]
  branches: BranchTree
  todos: TodoItem[]
}

/** The shape of a whole stored event (see EventShape). */
export function shapeOf(event: StoredEvent): EventShape {
  const { at, kind, key } = event
  if (kind === DELTA) return { at, kind, key }
  if (kind !== 'transcript.item') return { at, kind, key, payload: event.payload }
  const item = event.payload.item as TranscriptItem
  return {
    at,
    kind,
    key: key ?? transcriptKey(item),
    item: {
      kind: item.kind,
      turnId: 'turnId' in item ? item.turnId : undefined,
      ...(item.kind === 'user' ? { parent: item.parent } : {})
    }
  }
}

/**
 * Where each item of a session goes (see rehydrate): each in the order it first appeared, with
 * the events that make its state; a turn that never ended closed by a turn end whose stop reason
 * is `interrupted`, placed after its last item; the person's choices of branch replayed where
 * they were made, so each item lands on the branch it was added to. `since` is the latest time
 * of events before these (a plan of a log's tail: see TailOutline).
 */
export function planReplay(shapes: readonly EventShape[], since = 0): ReplayPlan {
  const branches = new BranchTree()
  const items: PlannedItem[] = []
  const at = new Map<string, number>()
  /** The turn each item belongs to, by position: user messages carry no turn id. */
  const turnOf: unknown[] = []
  const ended = new Set<unknown>()
  let todos: TodoItem[] = []
  let currentTurn: string | null = null
  let lastAt = since
  shapes.forEach((event, position) => {
    lastAt = Math.max(lastAt, event.at)
    const payload = event.payload ?? {}
    if (event.kind === 'turn.started') currentTurn = String(payload.turnId)
    if (event.kind === 'todo.updated') todos = payload.items as TodoItem[]
    if (event.kind === BRANCH_CHOSEN && typeof payload.child === 'string') {
      branches.choose(payload.child)
    }
    if (event.kind === DELTA) {
      // A delta of no reply (yet) is ignored.
      const index = event.key === null ? undefined : at.get(event.key)
      if (index !== undefined) items[index]?.rows.push(position)
      return
    }
    const item = event.item
    if (event.kind !== 'transcript.item' || !item || event.key === null) return
    const key = event.key
    // A restore happens between turns, in none of them.
    const turn = item.kind === 'user' ? currentTurn : item.kind === 'restore' ? null : item.turnId
    if (item.kind === 'turn-end') ended.add(item.turnId)
    const known = at.get(key)
    if (known === undefined) {
      at.set(key, items.length)
      items.push({ key, kind: item.kind, rows: [position] })
      turnOf.push(turn)
      branches.place(key, item)
    } else {
      items[known]?.rows.push(position)
    }
  })
  const lastIndex = new Map<unknown, number>()
  turnOf.forEach((turn, index) => turn !== null && lastIndex.set(turn, index))
  const all: PlannedItem[] = []
  items.forEach((item, index) => {
    all.push(item)
    const turn = turnOf[index]
    if (turn && lastIndex.get(turn) === index && !ended.has(turn)) {
      ended.add(turn)
      const closing: TranscriptItem = {
        kind: 'turn-end',
        turnId: String(turn),
        usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
        stopReason: INTERRUPTED,
        error: null,
        at: lastAt
      }
      const key = transcriptKey(closing)
      branches.place(key, closing, branches.segmentOf(item.key))
      all.push({ key, kind: 'turn-end', rows: [], closing })
    }
  })
  return { items: all, branches, todos }
}

/** The items of the branch shown, in order. */
export function shownItems(plan: ReplayPlan): PlannedItem[] {
  const path = new Set(plan.branches.path())
  return plan.items.filter((item) => plan.branches.shows(item.key, path))
}

/**
 * An item's state: its latest recorded state with the deltas after it added to a reply's text,
 * settled (see settle). `row` gives the whole event at a position of the plan's shapes.
 */
export function foldItem(
  planned: PlannedItem,
  row: (position: number) => StoredEvent | undefined
): TranscriptItem {
  if (planned.closing) return planned.closing
  let item: TranscriptItem | undefined
  for (const position of planned.rows) {
    const event = row(position)
    if (!event) throw new Error(`the event log lost a row of ${planned.key} while it was read`)
    if (event.kind !== DELTA) {
      item = event.payload.item as TranscriptItem
      continue
    }
    const delta = event.payload.delta
    if (item?.kind === 'assistant' && typeof delta === 'string') {
      item = { ...item, text: item.text + delta }
    }
  }
  if (!item) throw new Error(`the event log holds no state of ${planned.key}`)
  return settle(item)
}

/** What a call left running shows, and its model is told, once the app stopped mid-call. */
export const INTERRUPTED_CALL =
  'Interrupted: Mecatl stopped before this call finished, so its result is unknown. Check its effects before running it again.'

/** An item as it stands once nothing will change it any more. */
function settle(item: TranscriptItem): TranscriptItem {
  if (item.kind === 'assistant' && item.streaming) return { ...item, streaming: false }
  if (
    item.kind === 'tool' &&
    (item.call.state === 'running' || item.call.state === 'awaiting-approval')
  ) {
    return {
      ...item,
      call: {
        ...item.call,
        state: 'failed',
        endedAt: item.call.endedAt ?? item.call.startedAt,
        output: {
          content: [{ type: 'text', text: INTERRUPTED_CALL }],
          isError: true,
          external: false
        }
      }
    }
  }
  return item
}
