import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { ChildStep, ToolDisplay, ToolOutput } from '../../../shared/domain'
import { widen } from '../../gate/taint'
import type { Catalog } from '../../tools/catalog'
import { inputString, keyArgument } from '../../../shared/tool-input'
import { defineTool, errorOutput, textOutput, type Tool, type ToolContext } from '../../tools/tool'
import { plainPresentation } from '../../tools/tool-presentation'
import { applyBranch, createBranch, type Branch } from './branch-workspace'
import { runChild, type DelegationDeps } from './child-run'
import { capabilitiesOf, widest } from './subagent-tools'

export const PARALLEL = 'Parallel'
export const PARALLEL_MERGE = 'ParallelMerge'

type ParallelDisplay = Extract<ToolDisplay, { kind: 'parallel' }>

interface OpenRun {
  sessionId: string
  /** The Parallel call whose card shows the branches. */
  callId: string
  workspace: string
  branches: Branch[]
  display: ParallelDisplay
}

/** Where a merge is announced: the Parallel call's card is shown again with the winner marked. */
export type CardUpdate = (sessionId: string, callId: string, display: ParallelDisplay) => void

/**
 * Select-mode runs waiting for a winner. A run's copies live until one branch is taken (by the
 * model's ParallelMerge or the person's button) or the run is discarded; then all are removed.
 */
export class ParallelRuns {
  private readonly runs = new Map<string, OpenRun>()

  constructor(
    private readonly updateCard: CardUpdate,
    /** Checkpoints the folder before and after a merge (see checkpoints/); never throws. */
    private readonly checkpoint: (sessionId: string, reason: string) => Promise<void> = async () =>
      undefined
  ) {}

  open(run: OpenRun): void {
    this.runs.set(run.display.runId, run)
  }

  /** Applies one branch to the parent folder and removes every copy; never merges two. */
  async take(
    sessionId: string,
    runId: string,
    branch: number | null
  ): Promise<{ applied: string[] }> {
    const run = this.runs.get(runId)
    if (!run || run.sessionId !== sessionId) {
      throw new Error(
        `there is no open parallel run ${runId} in this session (a branch may already have been taken)`
      )
    }
    const chosen = branch === null ? undefined : run.branches[branch]
    if (branch !== null && !chosen) {
      throw new Error(`run ${runId} has branches 0 to ${run.branches.length - 1}, not ${branch}`)
    }
    // Taken out first, so a second take (the model and the person at once) finds nothing.
    this.runs.delete(runId)
    try {
      if (chosen)
        await this.checkpoint(run.sessionId, `before merging branch ${branch} of ${runId}`)
      const applied = chosen ? await applyBranch(chosen, run.workspace) : []
      if (chosen) await this.checkpoint(run.sessionId, `after merging branch ${branch} of ${runId}`)
      this.updateCard(run.sessionId, run.callId, { ...run.display, merged: branch, open: false })
      return { applied }
    } finally {
      await Promise.all(run.branches.map((b) => b.remove()))
    }
  }

  async dispose(): Promise<void> {
    const runs = [...this.runs.values()]
    this.runs.clear()
    await Promise.all(runs.flatMap((run) => run.branches.map((b) => b.remove())))
  }
}

const inputSchema = z
  .object({
    tasks: z
      .array(z.string().min(1))
      .min(1)
      .max(8)
      .describe('One task per branch; each runs in its own copy of the folder'),
    tools: z.array(z.string()).describe('Tools every branch may use, e.g. ["Read", "Edit"]'),
    mode: z
      .enum(['join', 'select'])
      .describe(
        'join: return every answer, discard all changes; select: return answers and diffs, then take one with ParallelMerge'
      ),
    merge: z
      .boolean()
      .optional()
      .describe(
        'select with a single task only: apply its changes to the folder as soon as it finishes (the default); false keeps its copy for ParallelMerge'
      )
  })
  .strict()
  .superRefine((input, ctx) => {
    // Several winners are never merged on their own: only a run with one branch has no choice.
    if (input.merge === true && (input.mode !== 'select' || input.tasks.length !== 1)) {
      ctx.addIssue({
        code: 'custom',
        path: ['merge'],
        message:
          'merge: true needs a single task in mode select; with several branches nothing is applied on its own: take one with ParallelMerge, or leave merge out'
      })
    }
  })

type ParallelInput = z.infer<typeof inputSchema>

/** A one-branch select run applies its branch to the session's folder when it finishes. */
function mergesItsBranch(input: ParallelInput): boolean {
  return input.mode === 'select' && input.tasks.length === 1 && input.merge !== false
}

/** Parallel: the same tools, several tasks, each in an isolated copy of the workspace. */
export function parallelTool(deps: DelegationDeps, runs: ParallelRuns, catalog: Catalog): Tool {
  return defineTool({
    name: PARALLEL,
    description:
      "Runs several tasks at once, each by a sub-agent in its own copy of the project folder (a git worktree, or a plain copy), so their edits cannot collide; a run that applies nothing itself runs beside your other read-only calls. mode 'join' returns all answers and discards the copies; mode 'select' also returns each branch's diff and keeps the copies until you call ParallelMerge with the branch to apply (only one branch is ever applied). A select run with a single task applies that branch's changes when it finishes, unless merge is false.",
    inputSchema,
    // Read-only for the dispatcher and the gate, except a call that applies its branch itself.
    readOnly: false,
    readOnlyFor: (input) => !mergesItsBranch(input),
    capabilities: widest,
    // Each call may do what its tools may; its writes stay in the copies until one is taken.
    capabilitiesFor: (input) => capabilitiesOf(input.tools, catalog),
    source: 'builtin',
    // Its branches are copies of the folder.
    folderContent: false,
    needsFolder: true,
    defaultDecision: null,
    presentation: {
      ...plainPresentation(PARALLEL, 'other'),
      summary: (input) => {
        const tasks = (input as { tasks?: unknown } | null)?.tasks
        if (!Array.isArray(tasks)) return keyArgument(input)
        return `${tasks.length} branches · ${inputString(input, 'mode') ?? 'join'}`
      }
    },
    call: (input, ctx) => runParallel(input, ctx, deps, runs)
  })
}

async function runParallel(
  input: ParallelInput,
  ctx: ToolContext,
  deps: DelegationDeps,
  runs: ParallelRuns
): Promise<ToolOutput> {
  const parent = deps.session(ctx.sessionId)
  const runId = randomUUID().slice(0, 8)
  const branches: Branch[] = []
  try {
    for (const _task of input.tasks) branches.push(await createBranch(parent.workspace))
  } catch (error) {
    await Promise.all(branches.map((b) => b.remove()))
    const message = error instanceof Error ? error.message : String(error)
    return errorOutput(`Parallel could not copy the folder for its branches: ${message}`)
  }
  const display: ParallelDisplay = {
    kind: 'parallel',
    runId,
    mode: input.mode,
    merged: null,
    open: input.mode === 'select' && !mergesItsBranch(input),
    branches: input.tasks.map((task, index) => ({
      index,
      task,
      status: 'running',
      answer: '',
      steps: [],
      changes: []
    }))
  }
  const shown = (): void => ctx.progress?.(structuredClone(display))
  const results = await Promise.all(
    input.tasks.map(async (task, index) => {
      const view = display.branches[index]
      const result = await runChild(
        parent,
        {
          agent: `branch ${index}`,
          task,
          tools: input.tools,
          workspace: branches[index]?.root
        },
        deps,
        ctx.signal,
        (steps: ChildStep[]) => {
          if (view) view.steps = steps
          shown()
        }
      )
      if (view) {
        view.status = result.failure ? 'failed' : 'done'
        view.answer = result.failure ? `did not finish: ${result.failure}` : result.answer
        view.changes = (await branches[index]?.changes()) ?? []
      }
      shown()
      return result
    })
  )
  const before = parent.taint
  for (const r of results)
    parent.taint = widen(parent.taint, { ...r.taint, egress: 'none', destructive: false })
  if (
    before.privateData !== parent.taint.privateData ||
    before.untrustedInput !== parent.taint.untrustedInput
  ) {
    deps.taintChanged(parent)
  }
  const patches = await Promise.all(branches.map((b) => b.patch()))
  const sections = display.branches.map((b, i) =>
    [
      `## Branch ${b.index}: ${b.task}`,
      b.answer || '(no answer)',
      input.mode === 'select'
        ? patches[i]?.trim()
          ? `Diff:\n${patches[i]}`
          : 'No file changes.'
        : `Changed: ${b.changes.map((c) => c.path).join(', ') || 'nothing'}`
    ].join('\n\n')
  )
  const single = mergesItsBranch(input)
    ? await mergeOnlyBranch(branches[0], results[0], parent.workspace, ctx.signal)
    : null
  if (single) sections.push(single.said)
  if (single?.merged) {
    display.merged = 0
  } else if (input.mode === 'join') {
    await Promise.all(branches.map((b) => b.remove()))
    sections.push('The branch copies were removed; none of their file changes were applied.')
  } else {
    display.open = true
    runs.open({
      sessionId: ctx.sessionId,
      callId: ctx.callId ?? '',
      workspace: parent.workspace,
      branches,
      display
    })
    sections.push(
      `Run ${runId}: call ${PARALLEL_MERGE} with run_id "${runId}" and the number of the one branch whose changes to apply (branch null discards them all). The person may also take a branch from the window.`
    )
  }
  return {
    content: [{ type: 'text', text: sections.join('\n\n') }],
    isError: false,
    external: results.some((r) => r.taint.untrustedInput),
    display: structuredClone(display)
  }
}

/**
 * Applies the single branch of a run to the session's folder and removes its copy. Says what was
 * applied, or why nothing was: a branch that did not finish, or one whose files changed in the
 * folder meanwhile, keeps its copy for ParallelMerge or the window.
 */
async function mergeOnlyBranch(
  branch: Branch | undefined,
  result: { failure: string | null } | undefined,
  workspace: string,
  signal: AbortSignal
): Promise<{ merged: boolean; said: string }> {
  if (!branch || !result || result.failure || signal.aborted) {
    return { merged: false, said: 'The only branch did not finish, so nothing was applied.' }
  }
  try {
    const applied = await applyBranch(branch, workspace)
    await branch.remove()
    return {
      merged: true,
      said: `Branch 0 was the only branch, so its changes were applied: ${applied.join(', ') || 'no file changes'}. Its copy was removed.`
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { merged: false, said: `The only branch could not be applied: ${message}` }
  }
}

/** ParallelMerge: applies one select-mode branch to the folder and removes every copy. */
export function parallelMergeTool(runs: ParallelRuns): Tool {
  return defineTool({
    name: PARALLEL_MERGE,
    description:
      'Applies the changes of one branch of a Parallel run (mode select) to the project folder and removes all of that run’s copies. Only one branch of a run can ever be applied; branch null discards them all.',
    inputSchema: z
      .object({
        run_id: z.string().min(1),
        branch: z.number().int().min(0).nullable()
      })
      .strict(),
    readOnly: false,
    capabilities: { privateData: false, untrustedInput: false, egress: 'none', destructive: true },
    source: 'builtin',
    // A session without a folder has no Parallel run to take a branch of.
    folderContent: false,
    needsFolder: false,
    defaultDecision: null,
    presentation: plainPresentation(PARALLEL_MERGE, 'other'),
    call: async (input, ctx) => {
      try {
        const { applied } = await runs.take(ctx.sessionId, input.run_id, input.branch)
        return textOutput(
          input.branch === null
            ? `Discarded every branch of run ${input.run_id}.`
            : `Applied branch ${input.branch} of run ${input.run_id}: ${applied.join(', ') || 'no file changes'}. The other branches were removed.`
        )
      } catch (error) {
        return errorOutput(error instanceof Error ? error.message : String(error))
      }
    }
  })
}
