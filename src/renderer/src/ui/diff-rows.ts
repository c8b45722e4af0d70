import { diffLines } from 'diff'

/** One row of a line diff as the card shows it, with the line's number on each side. */
export type DiffRow =
  | {
      kind: 'same' | 'add' | 'remove'
      oldLine: number | null
      newLine: number | null
      text: string
    }
  /** Unchanged lines folded away between changes. */
  | { kind: 'gap'; count: number }

export interface DiffSummary {
  rows: DiffRow[]
  added: number
  removed: number
}

/**
 * Beyond this many changed lines the smallest diff is not searched for (the search grows with
 * it); the old text is shown removed and the new added instead.
 */
const MAX_EDIT_LENGTH = 1000

function linesOf(value: string): string[] {
  const lines = value.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * The rows of a diff from `before` to `after` (null `before`: a new file, all additions), with
 * unchanged runs cut to `context` lines on each side of a change.
 */
export function diffRows(before: string | null, after: string, context = 3): DiffSummary {
  const changes = (before === null
    ? null
    : diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH })) ?? [
    { value: before ?? '', added: false, removed: true },
    { value: after, added: true, removed: false }
  ]
  const rows: DiffRow[] = []
  let oldLine = 1
  let newLine = 1
  let added = 0
  let removed = 0
  changes.forEach((change, index) => {
    const lines = linesOf(change.value)
    if (change.added) {
      for (const text of lines) rows.push({ kind: 'add', oldLine: null, newLine: newLine++, text })
      added += lines.length
    } else if (change.removed) {
      for (const text of lines)
        rows.push({ kind: 'remove', oldLine: oldLine++, newLine: null, text })
      removed += lines.length
    } else {
      const same = lines.map((text, i): DiffRow => ({
        kind: 'same',
        oldLine: oldLine + i,
        newLine: newLine + i,
        text
      }))
      oldLine += lines.length
      newLine += lines.length
      rows.push(...foldUnchanged(same, index === 0, index === changes.length - 1, context))
    }
  })
  return { rows, added, removed }
}

/** Keeps `context` lines next to the changes around an unchanged run; the middle becomes a gap. */
function foldUnchanged(run: DiffRow[], first: boolean, last: boolean, context: number): DiffRow[] {
  const head = first ? 0 : context
  const tail = last ? 0 : context
  // A gap row takes a line of its own, so folding one line away saves nothing.
  if (run.length - head - tail < 2) return run
  return [
    ...run.slice(0, head),
    { kind: 'gap', count: run.length - head - tail },
    ...run.slice(run.length - tail)
  ]
}
