import type { ContentBlock, SpillInfo, ToolOutput } from '../../shared/domain'
import { utf8Prefix, type SpillStore } from '../workspace/spill'
import { READ_MAX_BYTES } from '../tools/fs/read'
import { groupedDigits } from '../../shared/grouped-digits'

/** One turn's budget for tool output, and where outputs cut to it are saved whole. */
export interface OutputBudget {
  bytes: number
  spill: SpillStore
}

/**
 * Splits `budget` bytes across results of `sizes` bytes, fairly: every result gets an equal
 * share or its whole size if smaller, and what small results leave unused goes to the larger
 * ones, again in equal parts. One runaway result can then never starve its siblings.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const shares = new Array<number>(sizes.length).fill(0)
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => a.size - b.size)
  let left = Math.max(0, budget)
  order.forEach(({ size, index }, position) => {
    const fair = Math.floor(left / (order.length - position))
    const given = Math.min(size, fair)
    shares[index] = given
    left -= given
  })
  return shares
}

/** The bytes of a result that count against the budget: its text (images are capped apart). */
export function textBytes(output: ToolOutput): number {
  return Buffer.byteLength(joinedText(output.content))
}

function joinedText(content: readonly ContentBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
}

/** The start of a text cut to a byte limit. */
export interface TextCut {
  shown: string
  /** Whole lines shown; the rest begins at line `lines + 1`. */
  lines: number
  /** True when not even the first line fit, so part of it is shown. */
  midLine: boolean
}

/**
 * Cuts `text` to at most `limit` bytes, after the last whole line that fits; when no line fits,
 * part of the first is shown (never splitting a character).
 */
export function cutText(text: string, limit: number): TextCut {
  const bytes = Buffer.from(text)
  if (bytes.length <= limit) {
    return { shown: text, lines: countLines(text), midLine: false }
  }
  const room = bytes.subarray(0, Math.max(0, limit))
  const lastNewline = room.lastIndexOf(0x0a)
  if (lastNewline >= 0) {
    // Every line up to that newline is whole, the last of them possibly empty.
    const shown = room.subarray(0, lastNewline).toString('utf8')
    return { shown, lines: shown.split('\n').length, midLine: false }
  }
  const shown = utf8Prefix(room).toString('utf8')
  return { shown, lines: 0, midLine: shown !== '' }
}

function countLines(text: string): number {
  if (text === '') return 0
  const breaks = text.split('\n').length - 1
  return text.endsWith('\n') ? breaks : breaks + 1
}

interface MarkerFacts {
  shownBytes: number
  totalBytes: number
  lines: number
  totalLines: number
  midLine: boolean
}

/** What the model reads where an output was cut: what it sees, where the rest is, what to do. */
export function cutMarker(
  facts: MarkerFacts,
  saved: { path: string } | { reason: string }
): string {
  const next = facts.lines + 1
  const seen = facts.midLine
    ? `showing ${groupedDigits(facts.shownBytes)} of ${groupedDigits(facts.totalBytes)} bytes, which end partway through line 1 of ${groupedDigits(facts.totalLines)}`
    : `showing ${groupedDigits(facts.shownBytes)} of ${groupedDigits(facts.totalBytes)} bytes (${facts.lines === 0 ? 'no whole line' : `lines 1-${groupedDigits(facts.lines)}`} of ${groupedDigits(facts.totalLines)})`
  const head = `[Output cut to fit this turn's tool output budget: ${seen}.`
  if ('reason' in saved) {
    return `${head} The rest could not be saved (${saved.reason}), so it is lost: re-run the tool with a narrower request (a smaller range, a tighter pattern) to see it.]`
  }
  const where = `The whole output is saved in ${saved.path}; the rest begins at line ${groupedDigits(next)}.`
  const how =
    facts.midLine || facts.totalBytes > READ_MAX_BYTES
      ? 'Grep that file for what you need (its lines are too long, or it is too large, to Read).'
      : `To continue, Read that file with offset ${next}, or Grep it for what you need.`
  return `${head} ${where} ${how}]`
}

/**
 * Cuts `output` to `share` bytes (its marker included, unless the share is smaller than the
 * marker alone), saving the whole text first. When saving fails the marker admits the loss and
 * names no file.
 */
export async function cutOutput(
  output: ToolOutput,
  share: number,
  callId: string,
  spill: SpillStore
): Promise<ToolOutput> {
  const text = joinedText(output.content)
  const totalBytes = Buffer.byteLength(text)
  const totalLines = countLines(text)
  let saved: { path: string } | { reason: string }
  try {
    saved = { path: await spill.save(callId, text) }
  } catch (error) {
    saved = { reason: error instanceof Error ? error.message : String(error) }
  }
  // The marker's length depends on the cut it describes; its longest form with the largest
  // numbers bounds it.
  const widest = Math.max(
    ...[
      { lines: totalLines, midLine: false },
      { lines: 0, midLine: false },
      { lines: 0, midLine: true }
    ].map((form) =>
      Buffer.byteLength(
        cutMarker({ shownBytes: totalBytes, totalBytes, totalLines, ...form }, saved)
      )
    )
  )
  const cut = cutText(text, share - widest - 1)
  const facts = { shownBytes: Buffer.byteLength(cut.shown), totalBytes, totalLines, ...cut }
  const marker = cutMarker(facts, saved)
  const spillInfo: SpillInfo =
    'path' in saved
      ? {
          kind: 'saved',
          path: saved.path,
          shownBytes: facts.shownBytes,
          totalBytes,
          continueAtLine: cut.lines + 1
        }
      : { kind: 'lost', shownBytes: facts.shownBytes, totalBytes, reason: saved.reason }
  const images = output.content.filter((block) => block.type === 'image')
  return {
    ...output,
    content: [
      ...(cut.shown === '' ? [] : [{ type: 'text' as const, text: cut.shown }]),
      ...images,
      { type: 'text', text: marker }
    ],
    spill: spillInfo
  }
}
