import { randomUUID } from 'node:crypto'
import type { ContentBlock, TranscriptItem, Usage } from '../../shared/domain'
import type { ChatMessage, Provider } from '../providers/provider'
import {
  CARRIED_CLOSE,
  CARRIED_OPEN,
  defaultCarriers,
  type CarrierRegistry,
  type CarrierSource
} from './compaction-carriers'

export type CompactionItem = Extract<TranscriptItem, { kind: 'compaction' }>

/** Starts the message that stands for the summarised part of the conversation. */
export const SUMMARY_HEADER = '[Summary of the earlier conversation, which was compacted]'

/** The summarising request's instructions; a test's fake model recognises it by them. */
export const SUMMARY_SYSTEM = [
  'You summarise a conversation between a person and a coding agent so the agent can continue',
  'the work without the full history. Write a faithful, specific summary: what the person asked',
  'for, decisions made, files read or changed (by path), commands run and their outcomes, errors',
  'met, and what remains to do. Keep exact names, paths and numbers. Do not invent anything.',
  'Do not repeat the plan or loaded skills: they are carried separately. Answer with the summary',
  'only.'
].join(' ')

/** Characters of one tool result shown to the summariser, so the request itself stays small. */
const RESULT_CHARS = 2_000

export interface CompactionDeps {
  provider: Provider
  model: string
  maxTokens: number
  signal: AbortSignal
  carriers?: CarrierRegistry
}

export interface Compacted {
  item: CompactionItem
  usage: Usage
}

/**
 * Where the kept part of a history starts: the last message the person wrote, so their current
 * turn and everything after it (tool calls with their results) stay intact. A conversation whose
 * only message from the person is its first (a child agent's task, or a long first turn) keeps
 * its newest step instead (the last reply with its results), once there are older steps to
 * summarise. Null when there is nothing older worth summarising.
 */
export function keptFrom(history: readonly ChatMessage[]): number | null {
  let split = -1
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]
    if (message?.role === 'user' && !isSummary(message.text)) {
      split = i
      break
    }
  }
  if (split <= 0) return newestStep(history)
  const older = history.slice(0, split)
  return older.some((m) => m.role !== 'user' || !isSummary(m.text)) ? split : null
}

/** Where the newest model reply starts, when at least one reply comes before it. */
function newestStep(history: readonly ChatMessage[]): number | null {
  const replies = history.flatMap((m, i) => (m.role === 'assistant' ? [i] : []))
  return replies.length >= 2 ? (replies.at(-1) ?? null) : null
}

export function isSummary(text: string): boolean {
  return text.startsWith(SUMMARY_HEADER)
}

/** The history message a compaction leaves in place of the older ones. */
export function summaryMessage(summary: string, carried: string): ChatMessage {
  return { role: 'user', text: [SUMMARY_HEADER, summary, carried].filter(Boolean).join('\n\n') }
}

/**
 * Replaces the older part of `session.history` with one summary message written by the model
 * (a separate request without tools), followed by the carried state read now. Returns null, and
 * changes nothing, when there is nothing older to summarise or the model wrote no summary.
 */
export async function compactHistory(
  session: CarrierSource & { history: ChatMessage[] },
  turnId: string,
  deps: CompactionDeps
): Promise<Compacted | null> {
  const split = keptFrom(session.history)
  if (split === null) return null
  const older = session.history.slice(0, split)
  const reply = await deps.provider.stream(
    {
      model: deps.model,
      system: SUMMARY_SYSTEM,
      messages: [
        {
          role: 'user',
          text: `Summarise this conversation so far:\n\n${transcriptText(older)}`
        }
      ],
      tools: [],
      maxTokens: deps.maxTokens,
      signal: deps.signal
    },
    () => undefined
  )
  const summary = reply.text.trim()
  if (!summary || deps.signal.aborted) return null
  const carried = (deps.carriers ?? defaultCarriers()).block(session)
  session.history.splice(0, split, summaryMessage(summary, carried))
  const item: CompactionItem = {
    kind: 'compaction',
    id: randomUUID(),
    turnId,
    summary,
    carried,
    summarised: older.length,
    at: Date.now()
  }
  return { item, usage: reply.usage }
}

/**
 * The older messages as plain text for the summariser. Text rather than the messages themselves,
 * so no tool schemas are needed and no provider rejects dangling tool calls. An earlier summary
 * goes in without its carried block: that state is carried afresh, and leaving it out is what
 * keeps exactly one copy however many compactions follow.
 */
export function transcriptText(messages: readonly ChatMessage[]): string {
  const lines: string[] = []
  for (const message of messages) {
    if (message.role === 'user') {
      lines.push(
        isSummary(message.text)
          ? `Earlier summary:\n${stripCarried(message.text.slice(SUMMARY_HEADER.length)).trim()}`
          : `Person: ${message.text}`
      )
    } else if (message.role === 'assistant') {
      if (message.text) lines.push(`Agent: ${message.text}`)
      for (const call of message.toolCalls) lines.push(`Agent called ${call.name} ${call.input}`)
    } else {
      for (const result of message.results) {
        const state = result.isError ? 'failed' : 'returned'
        lines.push(`${result.name} ${state}: ${clip(blocksText(result.content))}`)
      }
    }
  }
  return lines.join('\n\n')
}

export function stripCarried(text: string): string {
  const start = text.indexOf(CARRIED_OPEN)
  if (start < 0) return text
  const end = text.indexOf(CARRIED_CLOSE, start)
  return end < 0
    ? text.slice(0, start)
    : text.slice(0, start) + text.slice(end + CARRIED_CLOSE.length)
}

function blocksText(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n')
}

function clip(text: string): string {
  if (text.length <= RESULT_CHARS) return text
  return `${text.slice(0, RESULT_CHARS)}… [${text.length - RESULT_CHARS} more characters]`
}
