import type { CallFiles } from '../../shared/checkpoints'
import type { Capabilities, ToolCallView, ToolDisplay } from '../../shared/domain'
import type { Gate } from '../gate/gate'
import type { Catalog } from '../tools/catalog'
import {
  errorOutput,
  isReadOnlyCall,
  type Tool,
  type ToolContext,
  type ToolOutput
} from '../tools/tool'
import { plainCard } from '../../shared/tool-card'
import { toolCard } from '../tools/tool-presentation'
import { inUntrustedFolder, judgedInUntrustedFolder } from './folder-content'
import { cutOutput, shareBudget, textBytes, type OutputBudget } from './output-budget'
import { parseToolInput } from './tool-input'

/** A tool call as the model made it; `input` is the raw JSON text, or already-parsed arguments. */
export interface RequestedCall {
  /** The call's identity in the session (see agent/turn-calls.ts). */
  id: string
  /** The provider's id for it, when it came from a model (`id` otherwise). */
  wireId?: string
  name: string
  input: unknown
  /** Why the call is refused before anything reads its input (arguments over the size limit). */
  refused?: string
}

export interface DispatchResult {
  callId: string
  /** The id the provider pairs this result with. */
  wireId: string
  name: string
  output: ToolOutput
  refusedBy: string | null
  /** The tool's capabilities, when the call named a tool that exists. */
  capabilities: Capabilities | null
}

export interface DispatchDeps {
  sessionId: string
  catalog: Catalog
  gate: Gate
  context: ToolContext
  /** Told of every state change of every call, for the window and `run --json`. */
  onUpdate: (view: ToolCallView) => void
  now?: () => number
  /** Bytes all results of these calls may take together; without it nothing is cut. */
  budget?: OutputBudget
  /** Why a call by this name is refused before the gate (a tool not yet found with ToolSearch). */
  refuse?: (name: string) => string | null
  /**
   * The session's folder is not trusted: results that carry its content are untrusted input.
   * Unset outside a session (`mecatl call`), where no taint is kept.
   */
  untrustedFolder?: boolean
  /**
   * Checkpoints of the folder (see checkpoints/): `before` right before a changing call runs,
   * `after` once it has, giving what it did to the files for its card. Neither ever throws.
   */
  checkpoints?: {
    before(): Promise<void>
    after(view: ToolCallView): Promise<CallFiles | null>
  }
}

/**
 * Why a turn stopped when the person did not stop it (its events could no longer be recorded),
 * given as the turn signal's abort reason so the calls it stops say why.
 */
export class TurnStop extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TurnStop'
  }
}

interface Prepared {
  view: ToolCallView
  tool: Tool | null
  input: unknown
  output: ToolOutput | null
  /** This call changes nothing (see `isReadOnlyCall`): it may run beside the step's other reads. */
  readOnly: boolean
  /** A person approved it as a write into `.git`. */
  gitWrite?: boolean
  /** Finished, but too large for an equal share: shown once the budget has been split. */
  held?: boolean
}

/**
 * Runs one turn's tool calls: every call is judged by the gate before any runs, in order, and
 * the calls waiting for a person are asked together (one dialog, a row each); then approved
 * calls execute, read-only ones concurrently and mutating ones alone, in the order the model gave
 * them. Read-only is decided per call, from the tool and its input. Every failure comes back as
 * an isError result, never a throw.
 */
export async function dispatch(
  calls: readonly RequestedCall[],
  deps: DispatchDeps
): Promise<DispatchResult[]> {
  const now = deps.now ?? Date.now
  const prepared = await judgeAll(calls, deps)

  // A result within an equal share is never cut, so it can be shown at once; a larger one waits
  // for its siblings, as its share depends on what they leave unused.
  const equalShare = deps.budget ? Math.floor(deps.budget.bytes / calls.length) : Infinity
  for (const batch of batches(prepared)) {
    await Promise.all(batch.map((item) => execute(item, deps, now, equalShare)))
  }
  if (deps.budget) await fitToBudget(prepared, deps.budget, deps)
  return prepared.map((item) => ({
    callId: item.view.id,
    wireId: item.view.wireId ?? item.view.id,
    name: item.view.name,
    output: item.output ?? errorOutput('the call did not run'),
    refusedBy: item.view.refusedBy,
    capabilities: item.view.capabilities
  }))
}

/**
 * Every call through the gate. Its own stages (hooks, rules) still take the calls one at a time,
 * in order; only the waits for a person overlap, so the asks come in the calls' order.
 */
async function judgeAll(calls: readonly RequestedCall[], deps: DispatchDeps): Promise<Prepared[]> {
  const turn = deps.context.signal
  // Stopping the turn withdraws every waiting ask; so does a gate that fails on a later call,
  // which must not leave an earlier one waiting in the dialog for a step that is over.
  const asks = new AbortController()
  const withdraw = (): void => asks.abort(turn.reason)
  if (turn.aborted) withdraw()
  turn.addEventListener('abort', withdraw, { once: true })
  const pending: Promise<Prepared>[] = []
  try {
    for (const call of calls) {
      let asking = (): void => undefined
      const asked = new Promise<void>((resolve) => (asking = resolve))
      const decided = prepare(call, deps, asks.signal, () => asking())
      pending.push(decided)
      await Promise.race([decided, asked])
    }
    return await Promise.all(pending)
  } catch (error) {
    asks.abort(error)
    await Promise.allSettled(pending)
    throw error
  } finally {
    turn.removeEventListener('abort', withdraw)
  }
}

async function prepare(
  call: RequestedCall,
  deps: DispatchDeps,
  asks: AbortSignal,
  onAsking: () => void
): Promise<Prepared> {
  const tool = deps.catalog.get(call.name) ?? null
  const view: ToolCallView = {
    id: call.id,
    ...(call.wireId !== undefined ? { wireId: call.wireId } : {}),
    name: call.name,
    input: call.input,
    state: 'awaiting-approval',
    readOnly: tool?.readOnly ?? true,
    capabilities: tool ? { ...tool.capabilities } : null,
    startedAt: null,
    endedAt: null,
    output: null,
    refusedBy: null,
    card: cardOf(tool, call.name, call.input)
  }
  // Refused unread, so nothing ran and no taint came in; the card keeps the short stand-in.
  if (call.refused) {
    view.input = parsedOrRaw(call.input)
    view.card = cardOf(tool, call.name, view.input)
    return finished(view, deps, errorOutput(call.refused), 'limit')
  }
  const refused = deps.refuse?.(call.name)
  // Refused before the gate, so it ran nothing and brings no taint.
  if (refused) return finished(view, deps, errorOutput(refused), 'catalog')
  if (!tool) {
    const names = deps.catalog.list().map((t) => t.name)
    return finished(
      view,
      deps,
      errorOutput(`There is no tool named ${call.name}. Available tools: ${names.join(', ')}.`)
    )
  }
  const parsed = parseToolInput(tool, call.input)
  view.input = parsed.shown
  view.card = toolCard(tool, parsed.shown)
  if (!parsed.ok) return finished(view, deps, errorOutput(parsed.message))
  const own = tool.capabilitiesFor?.(parsed.value) ?? tool.capabilities
  // Widened here, so the gate, the card and the session's taint all go by the same capabilities.
  const capabilities = deps.untrustedFolder ? inUntrustedFolder(tool, own) : own
  if (capabilities !== tool.capabilities) view.capabilities = { ...capabilities }
  const judged = deps.untrustedFolder
    ? judgedInUntrustedFolder(tool, capabilities)
    : capabilities !== tool.capabilities
      ? { ...tool, capabilities }
      : tool
  // The gate asks the same question of the same input, so card, gate and batching agree.
  const readOnly = isReadOnlyCall(tool, parsed.value)
  view.readOnly = readOnly

  if (deps.context.signal.aborted) {
    return finished(view, deps, notRun(deps.context.signal), 'cancel')
  }
  deps.onUpdate({ ...view })
  const decision = await deps.gate.decide(
    { sessionId: deps.sessionId, callId: call.id, tool: judged, input: parsed.value },
    asks,
    onAsking
  )
  if (!decision.allowed) {
    return finished(view, deps, errorOutput(decision.reason), decision.refusedBy)
  }
  return {
    view,
    tool,
    input: parsed.value,
    output: null,
    readOnly,
    gitWrite: decision.gitWrite === true
  }
}

/** A call naming no tool gets a plain card under the name the model gave. */
function cardOf(tool: Tool | null, name: string, input: unknown): ToolCallView['card'] {
  return tool ? toolCard(tool, input) : plainCard(name, input)
}

function parsedOrRaw(input: unknown): unknown {
  if (typeof input !== 'string') return input
  try {
    return JSON.parse(input) as unknown
  } catch {
    return input
  }
}

function finished(
  view: ToolCallView,
  deps: DispatchDeps,
  output: ToolOutput,
  refusedBy: string | null = null
): Prepared {
  view.state = refusedBy ? 'denied' : 'failed'
  view.refusedBy = refusedBy
  view.output = output
  deps.onUpdate({ ...view })
  return { view, tool: null, input: null, output, readOnly: view.readOnly }
}

/** Consecutive read-only calls form one concurrent batch; a mutating call is a batch alone. */
function batches(items: readonly Prepared[]): Prepared[][] {
  const runnable = items.filter((item) => item.tool && !item.output)
  const result: Prepared[][] = []
  for (const item of runnable) {
    const last = result.at(-1)
    if (item.readOnly && last?.[0]?.readOnly) last.push(item)
    else result.push([item])
  }
  return result
}

async function execute(
  item: Prepared,
  deps: DispatchDeps,
  now: () => number,
  equalShare: number
): Promise<void> {
  const tool = item.tool
  if (!tool) return
  const { view } = item
  if (deps.context.signal.aborted) return stopped(item, deps)
  if (!item.readOnly) await deps.checkpoints?.before()
  view.state = 'running'
  view.startedAt = now()
  deps.onUpdate({ ...view })
  // Announcing the call is recorded first; a turn that could not record it stops here.
  if (deps.context.signal.aborted) return stopped(item, deps)
  try {
    const progress = (display: ToolDisplay): void => {
      // Only while running: a late report must not overwrite the final result.
      if (view.state !== 'running') return
      view.output = { content: [], isError: false, external: false, display }
      deps.onUpdate({ ...view })
    }
    item.output = await tool.call(item.input, {
      ...deps.context,
      callId: view.id,
      progress,
      gitWriteApproved: item.gitWrite === true
    })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    item.output = errorOutput(`${tool.name} failed: ${message}`)
  }
  view.endedAt = now()
  // What the tool read said it was untrusted (a note written in a conversation that held such
  // input): the call counts as untrusted input from here on, for its card and the taint.
  if (item.output.untrustedInput && view.capabilities && !view.capabilities.untrustedInput) {
    view.capabilities = { ...view.capabilities, untrustedInput: true }
  }
  if (!item.readOnly && deps.checkpoints) {
    const files = await deps.checkpoints.after(view)
    if (files) view.files = [files]
  }
  if (textBytes(item.output) > equalShare) {
    item.held = true
    return
  }
  view.state = item.output.isError ? 'failed' : 'done'
  view.output = item.output
  deps.onUpdate({ ...view })
}

function notRun(signal: AbortSignal): ToolOutput {
  const why = signal.reason instanceof TurnStop ? `: ${signal.reason.message}` : '.'
  return errorOutput(`The turn was stopped before this call ran${why}`)
}

function stopped(item: Prepared, deps: DispatchDeps): void {
  const { view } = item
  item.output = notRun(deps.context.signal)
  view.state = 'denied'
  view.refusedBy = 'cancel'
  view.output = item.output
  deps.onUpdate({ ...view })
}

/** Cuts the results that exceed their share of the budget, saving each whole first. */
async function fitToBudget(
  items: readonly Prepared[],
  budget: OutputBudget,
  deps: DispatchDeps
): Promise<void> {
  const outputs = items.map((item) => item.output ?? errorOutput('the call did not run'))
  const shares = shareBudget(outputs.map(textBytes), budget.bytes)
  await Promise.all(
    items.map(async (item, i) => {
      const output = outputs[i]
      const share = shares[i] ?? 0
      if (!output || (textBytes(output) <= share && !item.held)) return
      const fitted =
        textBytes(output) > share
          ? await cutOutput(output, share, item.view.id, budget.spill)
          : output
      item.output = fitted
      item.held = false
      const { view } = item
      if (view.state === 'running') view.state = fitted.isError ? 'failed' : 'done'
      view.output = fitted
      deps.onUpdate({ ...view })
    })
  )
}
