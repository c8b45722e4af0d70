import { randomUUID } from 'node:crypto'
import type { ChildStep, ModelRef } from '../../../shared/domain'
import type { Approver } from '../../gate/gate'
import { widen, type Taint } from '../../gate/taint'
import type { ChatMessage } from '../../providers/provider'
import { Catalog } from '../../tools/catalog'
import { Session } from '../session'
import type { TurnAssembler } from '../turn-assembly'
import { runTurn } from '../turn-loop'
import type { TurnSink } from '../turn-sink'
import { childProfile, profileCatalog } from '../turn-tools'
import type { BackgroundChildren } from './background-children'
import { ChildSteps } from './child-steps'

/** The tools that start children; a child never gets them, so delegation cannot recurse. */
export function isDelegationTool(name: string): boolean {
  return /^(Subagent|SubagentStatus|Agent_.+|Parallel|ParallelMerge|Team)$/.test(name)
}

/** What a child run needs from the core: the turn assembler (and so the same rules, approver,
 * hooks and providers), and its parent session by the id its tool call carries. */
export interface DelegationDeps {
  turns: TurnAssembler
  /** The parent session, by the id its tool call carries. */
  session: (sessionId: string) => Session
  /** Tells the window that a parent's taint widened. */
  taintChanged: (session: Session) => void
  /** Where `background: true` children run; without it Subagent runs none in the background. */
  background?: BackgroundChildren
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
  /** The conversation the child starts from (a fork of its parent's); a fresh one when absent. */
  history?: readonly ChatMessage[]
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
  const full = await deps.turns.toolsFor(parent.workspace)
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
 * Widens a parent's taint by what a child's answer brings into its conversation, and tells the
 * window when that changed anything.
 */
export function widenParent(
  parent: Session,
  taint: Pick<Taint, 'privateData' | 'untrustedInput'>,
  deps: Pick<DelegationDeps, 'taintChanged'>
): void {
  const before = parent.taint
  parent.taint = widen(before, { ...taint, egress: 'none', destructive: false })
  if (
    parent.taint.privateData !== before.privateData ||
    parent.taint.untrustedInput !== before.untrustedInput
  ) {
    deps.taintChanged(parent)
  }
}

/**
 * Runs a child agent to its final answer: a conversation of its own (fresh, or a fork of its
 * parent's so far), starting with the parent's taint, under the parent's rules and hooks, asking
 * the parent's approver, compacting and reading instructions as its parent does.
 */
export async function runChild(
  parent: Session,
  spec: ChildSpec,
  deps: DelegationDeps,
  signal: AbortSignal,
  onSteps: (steps: ChildStep[]) => void
): Promise<ChildResult> {
  const { catalog, missing } = await childCatalog(parent, spec.tools, deps)
  if (missing.length > 0) {
    return {
      answer: '',
      failure: `these tools cannot be given to a sub-agent here: ${missing.join(', ')} (not in this session, or a delegation tool)`,
      taint: { ...parent.taint },
      steps: []
    }
  }
  const services = deps.turns.services
  const child = new Session(spec.workspace ?? parent.workspace, spec.model ?? parent.model, {
    spillRoot: services.spillRoot,
    userDir: services.userDir,
    // A parallel branch's copy is the parent's folder too: it goes by the parent's trust.
    folderTrusted: parent.folderTrusted
  })
  child.taint = { ...parent.taint }
  child.profile = childProfile(parent.profile)
  child.planning = parent.planning
  if (spec.history) {
    child.history.push(...structuredClone(spec.history))
    // The fork is about as long as the parent's last request: a conversation near its limit is
    // compacted before the child's first request instead of overflowing it.
    child.inputTokens = parent.inputTokens
  }
  const steps = new ChildSteps(onSteps)
  let failure: string | null = null
  const brief = [
    `You are a sub-agent named "${spec.agent}", sent by another agent to do one task. Work with the tools you were given; your final message is your answer and is all the other agent sees, so make it complete and plain.`,
    spec.instructions ?? ''
  ]
    .filter(Boolean)
    .join('\n')
  await runTurn(
    child,
    { turnId: randomUUID(), text: spec.task },
    () =>
      deps.turns.forChild({
        parent,
        child,
        catalog,
        brief,
        approver: labelled(services.approver, parent.id, spec.agent),
        // The parent's taint is read live: it may grow while the child runs.
        taint: () => widen(child.taint, asCaps(parent.taint))
      }),
    childSink(steps, (why) => (failure = why)),
    signal
  )
  const last = [...child.history].reverse().find((m) => m.role === 'assistant')
  const answer = last && last.role === 'assistant' ? last.text.trim() : ''
  if (signal.aborted) failure = 'the sub-agent was stopped'
  return { answer, failure, taint: child.taint, steps: steps.list() }
}

/** A child's turn goes to its parent's card (its nested steps), and nowhere else. */
function childSink(steps: ChildSteps, failed: (why: string) => void): TurnSink {
  return {
    started: () => undefined,
    item: (item) => steps.add(item),
    delta: () => undefined,
    summaryChanged: () => undefined,
    ended: (end) => {
      if (end.error) failed(end.error)
    },
    // The parent's card is what records the child, through the parent's own sink.
    recordingFailure: () => null
  }
}

function asCaps(taint: Taint): Parameters<typeof widen>[1] {
  return { ...taint, egress: 'none', destructive: false }
}

/** The parent's approver, asked on the parent's session and told which sub-agent is asking. */
function labelled(approver: Approver, parentId: string, agent: string): Approver {
  return {
    canAsk: approver.canAsk,
    ask: (request, signal, reason, options) =>
      approver.ask(
        { ...request, sessionId: parentId },
        signal,
        `the sub-agent "${agent}" wants to run it: ${reason}`,
        options
      )
  }
}
