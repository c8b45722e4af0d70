// A recorded session of any length, written straight into the store as a session records its
// turns, for the benchmarks that open a long session in the window without running it.
import type { SessionSummary, TranscriptItem } from '../src/shared/domain'
import { transcriptKey } from '../src/main/agent/session'
import type { Core } from '../src/main/core'
import type { NewEvent } from '../src/main/store/session-store'

/** Transcript items in one recorded turn (see turnEvents): a tool call's two states fold. */
export const ITEMS_PER_TURN = 7
/** Events in one recorded turn. */
export const EVENTS_PER_TURN = 10

/** The transcript items a session of `events` recorded events shows. */
export function itemsOf(events: number): number {
  return ITEMS_PER_TURN * Math.ceil(events / EVENTS_PER_TURN)
}

/** One turn's events as a session records them: 10 events, 7 transcript items. */
function turnEvents(label: string, n: number, at: number): NewEvent[] {
  const turnId = `turn-${n}`
  const item = (i: TranscriptItem): NewEvent => ({
    kind: 'transcript.item',
    key: transcriptKey(i),
    payload: { item: i },
    text: i.kind === 'user' || i.kind === 'assistant' ? i.text : null,
    at
  })
  const call = (c: number, done: boolean): TranscriptItem => ({
    kind: 'tool',
    turnId,
    call: {
      id: `call-${n}-${c}`,
      name: 'Read',
      input: { path: `src/module-${c}.ts` },
      state: done ? 'done' : 'running',
      readOnly: true,
      capabilities: {
        privateData: true,
        untrustedInput: false,
        egress: 'none',
        destructive: false
      },
      startedAt: at,
      endedAt: done ? at + 3 : null,
      output: done
        ? {
            content: [{ type: 'text', text: `1\texport const value${c} = ${n}\n`.repeat(8) }],
            isError: false,
            external: false
          }
        : null,
      refusedBy: null
    }
  })
  return [
    item({ kind: 'user', id: `u-${n}`, text: `[${label}] What does module ${n} do?`, at }),
    item({
      kind: 'assistant',
      id: `a-${n}`,
      turnId,
      text: `Let me read the modules for **question ${n}**.`,
      at,
      streaming: false
    }),
    ...[0, 1, 2].flatMap((c) => [item(call(c, false)), item(call(c, true))]),
    item({
      kind: 'assistant',
      id: `b-${n}`,
      turnId,
      text: `Module ${n} exports \`value\`; it is used by:\n\n- the loader\n- the tests\n`,
      at,
      streaming: false
    }),
    item({
      kind: 'turn-end',
      turnId,
      usage: { inputTokens: 1200, outputTokens: 80, cachedTokens: 900 },
      stopReason: 'end_turn',
      error: null,
      at
    })
  ]
}

/**
 * Records a session of `events` events (`label` in each user message and as its title) straight
 * into the core's store, as if it had been run; returns its id.
 */
export function recordSession(
  core: Core,
  workspace: string,
  label: string,
  events: number
): string {
  const turns = Math.ceil(events / EVENTS_PER_TURN)
  const all = Array.from({ length: turns }, (_, n) => turnEvents(label, n, 1_000 + n)).flat()
  const summary: SessionSummary = {
    id: `bench-${label}`,
    workspace,
    title: label,
    createdAt: 1_000,
    updatedAt: 1_000 + events,
    messageCount: turns * 3,
    model: null,
    running: false
  }
  core.store.sessions.insert(summary, null, all.slice(0, events))
  return summary.id
}
