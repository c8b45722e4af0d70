import type { ToolCallView, TranscriptItem } from '../../shared/domain'
import type { StoredEvent, StoredSession } from '../store/session-store'
import { INTERRUPTED, rehydrate } from './session-rehydrate'
import { formatUsd } from '../../shared/model-prices'
import { describeSessionCost, sessionCost } from './session-cost'
import { shownEvents } from './shown-events'

export type ExportFormat = 'jsonl' | 'md'

/** A session as text: JSONL (its events, as `run --json` prints them) or Markdown. */
export function exportSession(
  session: StoredSession,
  events: readonly StoredEvent[],
  format: ExportFormat
): string {
  // The branch shown: another version of a message is another conversation.
  return format === 'jsonl' ? toJsonl(session.id, shownEvents(events)) : toMarkdown(session, events)
}

/**
 * One line per recorded event, `{type, sessionId, ...payload}`, in the order they happened; the
 * log keeps each transcript item once, in its final state, where it first appeared (and the
 * deltas of a reply cut off by a crash, after it).
 */
export function toJsonl(sessionId: string, events: readonly StoredEvent[]): string {
  return events
    .map((event) =>
      JSON.stringify(
        // A summary names its session as `id`, as the event itself does.
        event.kind === 'session.updated'
          ? { type: event.kind, ...event.payload }
          : { type: event.kind, sessionId, ...event.payload }
      )
    )
    .map((line) => `${line}\n`)
    .join('')
}

/** The conversation for a person to read: messages, tool calls with input and result, turn ends. */
export function toMarkdown(session: StoredSession, events: readonly StoredEvent[]): string {
  const { transcript, items } = rehydrate(events)
  const model = session.model ? `${session.model.providerId}/${session.model.model}` : 'none'
  const lines = [
    `# ${session.title}`,
    '',
    `- Session: \`${session.id}\``,
    `- Folder: \`${session.workspace}\``,
    `- Model: ${model}`,
    `- Started: ${new Date(session.createdAt).toISOString()}`,
    `- Last activity: ${new Date(session.updatedAt).toISOString()}`,
    // What was paid, every branch's turns included.
    `- Cost: ${describeSessionCost(sessionCost(items))}`,
    ''
  ]
  for (const item of transcript) lines.push(...markdownOf(item), '')
  return `${lines.join('\n').trimEnd()}\n`
}

function markdownOf(item: TranscriptItem): string[] {
  switch (item.kind) {
    case 'user':
      return ['## You', '', item.text]
    case 'assistant':
      return item.text ? ['## Assistant', '', item.text] : []
    case 'tool':
      return toolMarkdown(item.call)
    case 'turn-end': {
      const { inputTokens, outputTokens, cachedTokens } = item.usage
      const why =
        item.stopReason === INTERRUPTED
          ? 'interrupted (the app stopped during this turn)'
          : item.stopReason
      const error = item.error ? ` Error: ${item.error}` : ''
      const cost = item.cost ? `, cost ${formatUsd(item.cost.usd)}` : ''
      return [
        `_Turn ended: ${why}; tokens in ${inputTokens}, out ${outputTokens}, cached ${cachedTokens}${cost}._${error}`
      ]
    }
    case 'compaction':
      return [`_Earlier messages were summarised (${item.summarised}):_`, '', item.summary]
    case 'restore':
      return [
        `_${item.label} (${item.changes.length} ${item.changes.length === 1 ? 'file' : 'files'}); undo: checkpoints restore ${item.undo.slice(0, 12)}._`
      ]
  }
}

function toolMarkdown(call: ToolCallView): string[] {
  const output = (call.output?.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : `[image: ${block.mediaType}]`))
    .join('\n')
  const refused = call.refusedBy ? ` (refused by ${call.refusedBy})` : ''
  return [
    `### Tool \`${call.name}\`: ${call.state}${refused}`,
    '',
    fence(JSON.stringify(call.input, null, 2) ?? '', 'json'),
    ...(output ? ['', fence(output, '')] : [])
  ]
}

/** A code fence longer than any run of backticks inside, so the text cannot close it. */
function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${lang}\n${text}\n${ticks}`
}
