import type { GroupPhrase, ToolCallView, ToolCard, TranscriptItem } from '../../../../shared/domain'
import { chipNews, type CapabilityChip } from '../safety'
import { findInText } from '../find'
import { callsOf, groupedText, plainCard } from '../../../../shared/tool-card'
import type { TranscriptEntry } from './transcript-reducer'

/** One transcript entry shown as itself, with the capability chips its card shows (tools only). */
export interface EntryRow {
  kind: 'entry'
  key: string
  entry: TranscriptEntry
  chips: readonly CapabilityChip[]
}

/** Consecutive read-only calls folded into one line ("Read 3 files, searched 2 patterns"). */
export interface GroupRow {
  kind: 'group'
  /** The first member's key, so the group keeps its identity (and open state) as it grows. */
  key: string
  members: EntryRow[]
  summary: string
  /** A member still runs. */
  running: boolean
}

/** What the transcript renders: an entry, or a group of read-only calls. */
export type TranscriptRow = EntryRow | GroupRow

/** A group needs this many calls: a single read-only call stays a card of its own. */
export const MIN_GROUP = 2

const NO_CHIPS: readonly CapabilityChip[] = []

/** A finished reply step with nothing to show (the model went straight to its next calls). */
function isEmptyStep(item: TranscriptItem): boolean {
  return (
    item.kind === 'assistant' &&
    !item.streaming &&
    item.text.trim() === '' &&
    (item.thinking?.length ?? 0) === 0 &&
    !item.interrupted &&
    !item.retry
  )
}

/**
 * A call worth folding: read-only, and nothing about it needs the person's eye. A call that
 * waits for approval, was refused, failed or came back with an error stays a card of its own.
 */
function foldable(item: TranscriptItem): item is Extract<TranscriptItem, { kind: 'tool' }> {
  if (item.kind !== 'tool') return false
  const { call } = item
  // A tool whose calls ask for the person or show the plan says they never fold (grouped null).
  if (!call.readOnly || cardOf(call).grouped === null) return false
  if (call.state === 'running') return true
  return call.state === 'done' && !call.output?.isError
}

type CardedCall = Pick<ToolCallView, 'name' | 'input' | 'card'>

/** What its tool says of a call (main sends it); a call recorded before that has a plain card. */
function cardOf(call: CardedCall): ToolCard {
  return call.card ?? plainCard(call.name, call.input)
}

/**
 * "Read 3 files, searched 2 patterns": each tool in the order it was first called, in the words
 * its first call's card gives.
 */
export function groupSummary(calls: readonly CardedCall[]): string {
  const counts = new Map<string, { phrase: GroupPhrase; n: number }>()
  for (const call of calls) {
    const seen = counts.get(call.name)
    if (seen) seen.n++
    else counts.set(call.name, { phrase: cardOf(call).grouped ?? callsOf(call.name), n: 1 })
  }
  const text = [...counts.values()].map(({ phrase, n }) => groupedText(phrase, n)).join(', ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function group(members: EntryRow[]): TranscriptRow[] {
  if (members.length < MIN_GROUP) return members
  const calls = members.flatMap(({ entry }) =>
    entry.item.kind === 'tool' ? [entry.item.call] : []
  )
  return [
    {
      kind: 'group',
      key: `group:${members[0]?.key ?? ''}`,
      members,
      summary: groupSummary(calls),
      running: calls.some((call) => call.state === 'running')
    }
  ]
}

/**
 * The transcript's display rows, oldest first. Finished reply steps with no text are left out
 * (they would show as gaps between calls) and do not break a run; runs of at least MIN_GROUP
 * foldable read-only calls become one group. Each tool entry carries the chips that are news in
 * this session (see safety/chip-news). Pure: the same entries give equal rows.
 */
export function transcriptRows(entries: readonly TranscriptEntry[]): TranscriptRow[] {
  const news = chipNews(entries.flatMap(({ item }) => (item.kind === 'tool' ? [item.call] : [])))
  const rows: TranscriptRow[] = []
  let run: EntryRow[] = []
  for (const entry of entries) {
    const { item } = entry
    if (isEmptyStep(item)) continue
    const chips = item.kind === 'tool' ? (news.get(item.call.id) ?? NO_CHIPS) : NO_CHIPS
    const row: EntryRow = { kind: 'entry', key: entry.key, entry, chips }
    if (foldable(item)) {
      run.push(row)
      continue
    }
    rows.push(...group(run), row)
    run = []
  }
  rows.push(...group(run))
  return rows
}

/** Markdown's marks, left out on both sides as find does (see find/find-reveal). */
const MARKS = /[*_`~#>|]/g

/**
 * The members of a group that mention `query` (by key), so the group and those cards can open
 * for the find bar: text inside a folded card can be neither seen nor found.
 */
export function membersWithHit(row: GroupRow, query: string): ReadonlySet<string> {
  const needle = query.replace(MARKS, '')
  const hits = new Set<string>()
  if (!needle.trim()) return hits
  for (const member of row.members) {
    const text = JSON.stringify(member.entry.item).replace(MARKS, '')
    if (findInText(text, needle).length > 0) hits.add(member.key)
  }
  return hits
}

/** About how tall a folded group is before it is measured: one line of small text. */
export const GROUP_ROW_SIZE = 28

/**
 * The indexes of the rows that show the entries at `entryIndexes` (the find bar pins entries
 * holding a hit; the view renders rows), sorted, each once. An entry that shows in no row (an
 * empty step) pins nothing.
 */
export function rowIndexesOf(
  rows: readonly TranscriptRow[],
  entries: readonly TranscriptEntry[],
  entryIndexes: readonly number[]
): number[] {
  if (entryIndexes.length === 0) return []
  const rowOfKey = new Map<string, number>()
  rows.forEach((row, index) => {
    if (row.kind === 'entry') rowOfKey.set(row.key, index)
    else for (const member of row.members) rowOfKey.set(member.key, index)
  })
  const found = new Set<number>()
  for (const at of entryIndexes) {
    const key = entries[at]?.key
    const index = key === undefined ? undefined : rowOfKey.get(key)
    if (index !== undefined) found.add(index)
  }
  return [...found].sort((a, b) => a - b)
}
