import { randomUUID } from 'node:crypto'
import type { CallFiles } from '../../shared/checkpoints'
import type { Attachment } from '../../shared/attachments'
import type { GitChange, TranscriptItem, Usage } from '../../shared/domain'
import type { Gate } from '../gate/gate'
import type { Provider } from '../providers/provider'
import { addUsage, zeroUsage } from '../providers/provider'
import { describeFailure } from '../providers/provider-errors'
import { costOf, type PricedModel } from '../../shared/model-prices'
import type { Catalog } from '../tools/catalog'
import { planEcho } from '../tools/todo/todo-board'
import { todoTool } from '../tools/todo/todo'
import { dispatch, TurnStop, type DispatchDeps, type DispatchResult } from './dispatcher'
import { widen } from '../gate/taint'
import { sessionProvenance } from './folder-content'
import type { Session } from './session'
import type { TurnSink } from './turn-sink'
import { compactHistory } from './compaction'
import { identifyCalls, wireCalls } from './turn-calls'
import { streamWithRetries } from './turn-retry'
import { historyForModel, userChatMessage } from './user-message'
import type { RetryPolicy } from '../providers/retry'
import type { ModelReasoning } from '../../shared/reasoning'
import { overContextLimit, promptTokens, type ContextLimit } from './context-limit'
import { watchGitControl } from '../workspace/git-control-files'

export interface TurnDeps {
  provider: Provider
  model: string
  catalog: Catalog
  /**
   * The tools the model is offered, when fewer than `catalog` (planning mode). A call to another
   * tool of the catalog still reaches the gate, which says why it is refused.
   */
  offered?: Catalog
  gate: Gate
  system: string
  maxTokens: number
  /** Model replies in one turn before it is stopped, so a looping model cannot run forever. */
  maxSteps?: number
  /** Bytes of tool output each reply's calls may add together; without it nothing is cut. */
  outputBudgetBytes?: number
  /** Whether the model takes images (see providers/model-capabilities.ts). */
  modelSupportsImages?: boolean
  /** Why a call by name is refused before the gate (see agent/turn-tools.ts). */
  refuse?: (name: string) => string | null
  /** Input tokens past which older messages are summarised first; without it, never. */
  compactAt?: number
  /** How long a provider may send nothing before its reply is given up; its default if unset. */
  providerIdleMs?: number
  /** Records the project folder's files (see checkpoints/); absent: no checkpoints. */
  checkpoints?: TurnCheckpoints
  /** How a failed request is tried again (see providers/retry.ts); absent: the defaults. */
  retry?: RetryPolicy
  /** The model's price, from the settings or the table; absent or null: the turn has no cost. */
  price?: PricedModel | null
  /** The window a local server serves the model with; a longer request is not sent. */
  contextLimit?: ContextLimit
  /** The model's thinking budget or reasoning effort (see shared/reasoning.ts); absent: off. */
  reasoning?: ModelReasoning
  /**
   * Resolves once what the catalog's facts depend on has answered (Shell's sandbox self-test),
   * starting it if need be. The turn's tools were made without waiting for it, so its first
   * request goes out at once: it is started as that request is sent, and waited for before any
   * call is judged. Absent: the catalog was made settled.
   */
  settle?: () => Promise<void>
}

/** A session turn's checkpoints. Neither call ever throws: a failure is told, not raised. */
export interface TurnCheckpoints {
  /** Before the turn's first change: the checkpoint's id, or null when none could be taken. */
  before(): Promise<string | null>
  /** After a changing call: what it did to the files, as its card shows it. */
  after(callName: string): Promise<CallFiles | null>
}

/** A turn's message: the text the person (or the parent agent) sent, and the turn's id. */
export interface TurnRequest {
  turnId: string
  text: string
  /** Images and project files sent with the text, checked (see attachment-check.ts). */
  attachments?: readonly Attachment[]
  /** The user message this one follows (an edit's branch point); absent: the branch shown's end. */
  parent?: string | null
}

const DEFAULT_MAX_STEPS = 50

/**
 * One turn: the person's message, then model replies and tool calls until the model stops.
 * Every step is recorded in the session's transcript and told to the sink as it happens.
 * `assemble` builds what the turn needs from the settings of this moment; when it cannot (no
 * model chosen, a provider gone from Settings), the turn ends at once with its sentence.
 */
export async function runTurn(
  session: Session,
  { turnId, text, attachments, parent }: TurnRequest,
  assemble: () => Promise<TurnDeps>,
  sink: TurnSink,
  cancelled: AbortSignal
): Promise<void> {
  // The turn stops on the person's cancel, or once what it does can no longer be recorded:
  // nothing may happen that is not recorded. Every step below goes by this signal.
  const halt = new AbortController()
  const onCancel = (): void => halt.abort(cancelled.reason)
  cancelled.addEventListener('abort', onCancel, { once: true })
  if (cancelled.aborted) onCancel()
  const signal = halt.signal
  const recording: { failure: string | null } = { failure: null }
  const checkRecording = (): void => {
    const why = recording.failure === null ? sink.recordingFailure() : null
    if (why === null) return
    recording.failure = why
    halt.abort(new TurnStop(why))
  }
  const record = (item: TranscriptItem): void => {
    session.upsert(item)
    sink.item(item)
    // A session's sink records before it returns, so the record was written (or failed) by now.
    checkRecording()
  }
  /** The one way a turn ends: its turn-end item recorded, then the sink told. */
  let price: PricedModel | null = null
  const end = (
    usage: Usage,
    stopReason: string,
    error: string | null,
    gitChanges: GitChange[] = []
  ): void => {
    cancelled.removeEventListener('abort', onCancel)
    const cost = price ? costOf(usage, price) : null
    const item = {
      kind: 'turn-end' as const,
      turnId,
      usage,
      cost,
      stopReason,
      error: recording.failure ?? error,
      at: Date.now(),
      ...(gitChanges.length > 0 ? { gitChanges } : {})
    }
    record(item)
    // Even the end could not be recorded: the turn did not complete as far as the record goes,
    // and the end the window shows says why.
    if (recording.failure !== null && item.error !== recording.failure) {
      const told = { ...item, error: recording.failure }
      session.upsert(told)
      sink.item(told)
    }
    sink.ended({ turnId, usage, cost, stopReason, error: recording.failure ?? item.error })
  }
  sink.started(turnId)
  const userItem = {
    kind: 'user' as const,
    id: randomUUID(),
    text,
    at: Date.now(),
    ...(attachments?.length ? { attachments: [...attachments] } : {}),
    // Always said, so the log replays each message onto its own branch.
    parent: parent === undefined ? session.tip() : parent
  }
  record(userItem)
  resourcesIn(session, attachments, sink)
  let deps: TurnDeps
  try {
    deps = await assemble()
    price = deps.price ?? null
  } catch (error) {
    end({ ...zeroUsage }, 'error', describeFailure(error))
    return
  }
  session.history.push(userChatMessage(text, attachments))
  sink.summaryChanged()
  // Before any tool runs: what the turn does to git's own files is named at its end.
  const gitWatch = await watchGitControl(session.workspace)

  let usage: Usage = { ...zeroUsage }
  let stopReason = 'end_turn'
  let failure: string | null = null
  /** Set by the Compact tool; the compaction runs once the step's results are in the history. */
  let compactRequested = false
  /** Whether this turn's first change has been preceded by a checkpoint. */
  let checkpointed = false
  const turnCheckpoints = deps.checkpoints
  const checkpoints: DispatchDeps['checkpoints'] = turnCheckpoints && {
    before: async () => {
      if (checkpointed) return
      checkpointed = true
      const id = await turnCheckpoints.before()
      // The message remembers how the folder was before it: what Rewind puts back.
      if (id) record({ ...userItem, checkpoint: id })
    },
    after: (view) => turnCheckpoints.after(view.name)
  }
  const compact = async (): Promise<void> => {
    const done = await compactHistory(session, turnId, {
      provider: deps.provider,
      model: deps.model,
      maxTokens: deps.maxTokens,
      signal
    })
    // Unknown until the next reply says; a compaction with nothing older must not repeat.
    session.inputTokens = 0
    if (!done) return
    usage = addUsage(usage, done.usage)
    record(done.item)
  }
  try {
    for (let step = 0; ; step++) {
      if (step >= (deps.maxSteps ?? DEFAULT_MAX_STEPS)) {
        stopReason = 'max_steps'
        break
      }
      checkRecording()
      if (signal.aborted) break
      if (deps.compactAt !== undefined && session.inputTokens >= deps.compactAt) await compact()
      refuseOverLimit(session, deps)
      const reply = await streamReply(session, turnId, deps, sink, signal, record)
      usage = addUsage(usage, reply.usage)
      session.inputTokens = reply.usage.inputTokens
      stopReason = reply.stopReason || 'end_turn'
      const calls = await identifyCalls(reply.toolCalls, { turnId, step, spill: session.spill })
      session.history.push({
        role: 'assistant',
        text: reply.text,
        toolCalls: wireCalls(calls),
        ...(reply.thinking ? { thinking: reply.thinking } : {})
      })
      // Calls of a stopped turn still get results (saying they did not run): a history with a
      // call and no result is one the provider refuses.
      if (calls.length === 0) break

      // The gate judges every call on the facts as they stand once the sandbox has answered.
      await deps.settle?.()
      const results = await dispatch(calls, {
        sessionId: session.id,
        catalog: deps.catalog,
        gate: deps.gate,
        context: {
          sessionId: session.id,
          jail: session.jail,
          reads: session.reads,
          signal,
          todos: session.todos,
          skills: session.skills,
          provenance: () => sessionProvenance(session),
          modelSupportsImages: deps.modelSupportsImages,
          requestCompaction: () => {
            compactRequested = true
          }
        },
        onUpdate: (call) => record({ kind: 'tool', turnId, call }),
        refuse: deps.refuse,
        untrustedFolder: !session.folderTrusted,
        checkpoints,
        budget:
          deps.outputBudgetBytes === undefined
            ? undefined
            : { bytes: deps.outputBudgetBytes, spill: session.spill }
      })
      recordTaint(session, results, sink)
      // The plan rides along with every result but the Todo call's own, which already shows it.
      const echo = planEcho(session.todos.items())
      session.history.push({
        role: 'tool',
        results: results.map((r) => ({
          callId: r.wireId,
          name: r.name,
          content:
            echo && r.name !== todoTool.name
              ? [...r.output.content, { type: 'text' as const, text: echo }]
              : r.output.content,
          isError: r.output.isError
        }))
      })
      if (signal.aborted) break
      if (compactRequested) {
        compactRequested = false
        await compact()
      }
    }
  } catch (error) {
    if (!signal.aborted) failure = describeFailure(error)
  }
  if (cancelled.aborted) stopReason = 'cancelled'
  end(usage, stopReason, failure, await gitWatch.changes())
}

function refuseOverLimit(session: Session, deps: TurnDeps): void {
  if (!deps.contextLimit) return
  const tools = (deps.offered ?? deps.catalog).modelSchemas()
  const tokens = promptTokens(deps.system, session.history, tools)
  const why = overContextLimit(deps.model, deps.contextLimit, tokens)
  if (why) throw new Error(why)
}

async function streamReply(
  session: Session,
  turnId: string,
  deps: TurnDeps,
  sink: TurnSink,
  signal: AbortSignal,
  record: (item: TranscriptItem) => void
): Promise<Awaited<ReturnType<Provider['stream']>>> {
  const messageId = randomUUID()
  const item: Extract<TranscriptItem, { kind: 'assistant' }> = {
    kind: 'assistant',
    id: messageId,
    turnId,
    text: '',
    at: Date.now(),
    streaming: true
  }
  record({ ...item })
  try {
    const reply = await streamWithRetries(item, deps.retry, signal, record, () =>
      deps.provider.stream(
        {
          model: deps.model,
          system: deps.system,
          messages: historyForModel(session.history, deps.modelSupportsImages === true),
          tools: (deps.offered ?? deps.catalog).modelSchemas(),
          maxTokens: deps.maxTokens,
          signal,
          cacheKey: session.id,
          ...(deps.reasoning ? { reasoning: deps.reasoning } : {}),
          // Each finished block of thinking is shown (collapsed) and recorded before the answer.
          onThinking: (blocks) => {
            item.thinking = [...blocks]
            record({ ...item })
          },
          // The words as they come, to the windows only: the finished block above is the record.
          onThinkingDelta: (place, delta) => sink.thinkingDelta?.(turnId, item.id, place, delta),
          // Started while the model answers, off the way to the request; a failure to start is
          // met again, and said, where the calls wait for it.
          ...(deps.settle ? { onSent: () => void deps.settle?.().catch(() => undefined) } : {}),
          ...(deps.providerIdleMs !== undefined ? { idleTimeoutMs: deps.providerIdleMs } : {})
        },
        (delta) => {
          item.text += delta
          sink.delta(turnId, item.id, delta)
        }
      )
    )
    record({
      ...item,
      text: reply.text,
      streaming: false,
      ...(reply.thinking ? { thinking: reply.thinking } : {})
    })
    return reply
  } catch (error) {
    // Keep what streamed before a stop or a failure: it was shown, so it stays in the transcript.
    record({ ...item, streaming: false })
    if (signal.aborted) {
      return { text: item.text, toolCalls: [], usage: { ...zeroUsage }, stopReason: 'cancelled' }
    }
    throw error
  }
}

/**
 * A message's MCP resources came into the conversation with it: a server's data (private) from
 * outside (untrusted), so with them the interlock is armed before any tool runs.
 */
function resourcesIn(
  session: Session,
  attachments: readonly Attachment[] | undefined,
  sink: TurnSink
): void {
  if (!attachments?.some((a) => a.kind === 'resource')) return
  const before = session.taint
  if (before.privateData && before.untrustedInput) return
  session.taint = { privateData: true, untrustedInput: true }
  sink.summaryChanged()
}

/**
 * What the calls that ran brought into the conversation. A call our own gate refused brought
 * nothing, so it adds no taint.
 */
function recordTaint(session: Session, results: readonly DispatchResult[], sink: TurnSink): void {
  const before = session.taint
  let after = before
  for (const result of results) {
    if (result.refusedBy === null && result.capabilities) after = widen(after, result.capabilities)
  }
  if (after.privateData === before.privateData && after.untrustedInput === before.untrustedInput) {
    return
  }
  session.taint = after
  sink.summaryChanged()
}
