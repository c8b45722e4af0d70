import { randomUUID } from 'node:crypto'
import type { ApprovalMode, ChildStep, ModelRef } from '../../../shared/domain'
import type { Settings } from '../../../shared/settings'
import { Gate, type Approver } from '../../gate/gate'
import { gatePolicy } from '../../gate/policy'
import type { RuleBook } from '../../gate/rule-book'
import { widen, type Taint } from '../../gate/taint'
import { outputBudgetBytes } from '../../providers/context-window'
import { createProvider, type KeySource } from '../../providers/create-provider'
import { modelRefSupportsImages } from '../../providers/model-capabilities'
import type { Provider } from '../../providers/provider'
import { EventHub } from '../../rpc/event-hub'
import { Catalog } from '../../tools/catalog'
import { Session } from '../session'
import { systemPrompt } from '../system-prompt'
import { runTurn } from '../turn-loop'
import { childProfile, profileCatalog } from '../turn-tools'
import { ChildSteps } from './child-steps'

/** The tools that start children; a child never gets them, so delegation cannot recurse. */
export function isDelegationTool(name: string): boolean {
  return /^(Subagent|Agent_.+|Parallel|ParallelMerge|Team)$/.test(name)
}

/** What a child run needs from the core: the same rules, approver, hooks and providers. */
export interface DelegationDeps {
  /** The parent session, by the id its tool call carries. */
  session: (sessionId: string) => Session
  catalogFor: (workspace: string) => Promise<Catalog>
  settings: () => Promise<Settings>
  rules?: RuleBook
  approver: Approver
  keys: KeySource
  providerFor?: (ref: ModelRef, settings: Settings) => Provider | null
  modeOverride?: ApprovalMode
  autoApprove?: boolean
  spillRoot: string
  userDir?: string
  /** Tells the window that a parent's taint widened. */
  taintChanged: (session: Session) => void
}

export interface ChildSpec {
  /** How the child is named to the person (its approvals say it) and to itself. */
  agent: string
  task: string
  tools: readonly string[]
  model?: ModelRef
  /** Extra instructions (the answer shape); appended to the child's system prompt. */
  instructions?: string
  /** The folder the child works in (a parallel branch's copy); the parent's when absent. */
  workspace?: string
}

export interface ChildResult {
  answer: string
  /** Why the child could not finish, or null. */
  failure: string | null
  /** What entered the child's conversation, the parent's taint included. */
  taint: Taint
  steps: ChildStep[]
}

/**
 * The child's tools: exactly the allowlist, taken from what the parent's profile lets it have.
 * Returns the names that cannot be granted, so the caller can say so instead of running.
 */
export async function childCatalog(
  parent: Session,
  names: readonly string[],
  deps: DelegationDeps
): Promise<{ catalog: Catalog; missing: string[] }> {
  const full = await deps.catalogFor(parent.workspace)
  const allowed = profileCatalog(full, childProfile(parent.profile))
  const catalog = new Catalog()
  const missing: string[] = []
  for (const name of new Set(names)) {
    const tool = allowed.get(name)
    if (!tool || isDelegationTool(name)) missing.push(name)
    else catalog.register(tool)
  }
  return { catalog, missing }
}

/**
 * Runs a child agent to its final answer: a fresh conversation with its own history, starting
 * with the parent's taint, under the parent's rules and hooks, asking the parent's approver.
 */
export async function runChild(
  parent: Session,
  spec: ChildSpec,
  deps: DelegationDeps,
  signal: AbortSignal,
  onSteps: (steps: ChildStep[]) => void
): Promise<ChildResult> {
  const settings = await deps.settings()
  const { catalog, missing } = await childCatalog(parent, spec.tools, deps)
  if (missing.length > 0) {
    return {
      answer: '',
      failure: `these tools cannot be given to a sub-agent here: ${missing.join(', ')} (not in this session, or a delegation tool)`,
      taint: { ...parent.taint },
      steps: []
    }
  }
  const model = spec.model ?? parent.model
  const child = new Session(spec.workspace ?? parent.workspace, model, {
    spillRoot: deps.spillRoot,
    userDir: deps.userDir
  })
  child.taint = { ...parent.taint }
  child.profile = childProfile(parent.profile)
  child.planning = parent.planning
  const steps = new ChildSteps(onSteps)
  const hub = new EventHub()
  let failure: string | null = null
  hub.subscribe((frame) => {
    if (frame.event === 'transcript.item') {
      const { item } = frame.payload as { item: Parameters<ChildSteps['add']>[0] }
      steps.add(item)
      if (item.kind === 'turn-end' && item.error) failure = item.error
    }
  })
  let provider: Provider
  try {
    provider = providerFor(model, settings, deps)
  } catch (error) {
    return {
      answer: '',
      failure: error instanceof Error ? error.message : String(error),
      taint: child.taint,
      steps: []
    }
  }
  const rules = () =>
    deps.rules?.effective({ workspace: parent.workspace, sessionRules: parent.rules }) ??
    Promise.resolve([])
  const gate = new Gate(
    gatePolicy(settings, {
      workspace: child.workspace,
      modeOverride: deps.modeOverride,
      sessionRules: parent.rules,
      rules: deps.rules ? await rules() : undefined,
      currentRules: deps.rules ? rules : undefined,
      autoApprove: deps.autoApprove,
      planning: parent.planning
    }),
    labelled(deps.approver, parent.id, spec.agent),
    // The parent's taint is read live: it may grow while the child runs.
    () => widen(child.taint, asCaps(parent.taint))
  )
  const system = [
    systemPrompt(child.workspace),
    `You are a sub-agent named "${spec.agent}", sent by another agent to do one task. Work with the tools you were given; your final message is your answer and is all the other agent sees, so make it complete and plain.`,
    spec.instructions ?? ''
  ]
    .filter(Boolean)
    .join('\n')
  await runTurn(
    child,
    randomUUID(),
    spec.task,
    {
      provider,
      model: model?.model ?? '',
      catalog,
      gate,
      hub,
      system,
      maxTokens: settings.max_tokens,
      outputBudgetBytes: outputBudgetBytes(model, settings),
      modelSupportsImages: modelRefSupportsImages(model, settings),
      providerIdleMs: settings.provider_idle_timeout_s * 1000
    },
    signal
  )
  const last = [...child.history].reverse().find((m) => m.role === 'assistant')
  const answer = last && last.role === 'assistant' ? last.text.trim() : ''
  if (signal.aborted) failure = 'the sub-agent was stopped'
  return { answer, failure, taint: child.taint, steps: steps.list() }
}

function asCaps(taint: Taint): Parameters<typeof widen>[1] {
  return { ...taint, egress: 'none', destructive: false }
}

/** The parent's approver, asked on the parent's session and told which sub-agent is asking. */
function labelled(approver: Approver, parentId: string, agent: string): Approver {
  return {
    canAsk: approver.canAsk,
    ask: (request, signal, reason) =>
      approver.ask(
        { ...request, sessionId: parentId },
        signal,
        `the sub-agent "${agent}" wants to run it: ${reason}`
      )
  }
}

function providerFor(ref: ModelRef | null, settings: Settings, deps: DelegationDeps): Provider {
  if (!ref) throw new Error('No model is chosen for this session, so a sub-agent cannot run.')
  const given = deps.providerFor?.(ref, settings)
  if (given) return given
  const config = settings.providers.find((p) => p.id === ref.providerId)
  if (!config) throw new Error(`The provider "${ref.providerId}" is not in Settings.`)
  return createProvider(config, deps.keys)
}
