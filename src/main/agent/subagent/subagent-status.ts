import { z } from 'zod'
import { formatSpan } from '../../jobs/job'
import {
  defineTool,
  errorOutput,
  noCapabilities,
  textOutput,
  type Capabilities,
  type Tool
} from '../../tools/tool'
import { plainPresentation } from '../../tools/tool-presentation'
import type { BackgroundChildren, BackgroundRun } from './background-children'
import { widenParent, type DelegationDeps } from './child-run'
import { statusListing } from '../../tools/status-listing'

export const SUBAGENT_STATUS = 'SubagentStatus'

/** The longest one SubagentStatus call waits for a child. */
export const MAX_WAIT_MS = 10 * 60_000

/**
 * Without an id it lists handles and tasks only; with one it may return a child's answer, which
 * brings in what the child's tools could (the call's own capabilities say exactly that).
 */
const anyAnswer: Capabilities = {
  privateData: true,
  untrustedInput: true,
  egress: 'none',
  destructive: false
}

const inputSchema = z.strictObject({
  id: z
    .string()
    .regex(/^subagent-\d+$/, 'a background sub-agent id looks like subagent-2')
    .optional()
    .describe(
      'The background sub-agent to look at, as Subagent returned it (subagent-N). Leave out to list them.'
    ),
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    .describe(`Wait up to this many milliseconds for it to finish (at most ${MAX_WAIT_MS}).`),
  cancel: z.boolean().default(false).describe('Stop it, then return what it has to say.')
})

function stateText(run: BackgroundRun): string {
  if (run.state === 'running') return `running for ${formatSpan(Date.now() - run.startedAt)}`
  if (run.state === 'cancelled') return `cancelled (${run.stopReason ?? 'stopped'})`
  return run.state === 'done' ? 'finished' : 'failed'
}

function listLine(run: BackgroundRun): string {
  const collected =
    run.state === 'running'
      ? ''
      : run.collected
        ? ' · answer collected'
        : ' · answer not collected yet'
  return `- ${run.id} · ${run.agent} · ${stateText(run)}${collected} · task: ${oneLine(run.task)}`
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

/**
 * Only the names of the tools a running child called are shown, never what it wrote or read:
 * its words enter this conversation once, when its answer is collected.
 */
function runningView(run: BackgroundRun, waitedMs: number | null): string {
  const calls = run.steps.flatMap((step) => (step.kind === 'call' ? [step.name] : []))
  const waited =
    waitedMs === null ? '' : ` It did not finish within the ${formatSpan(waitedMs)} waited.`
  return [
    `${run.id} (${run.agent}) is ${stateText(run)}: ${calls.length} tool call${calls.length === 1 ? '' : 's'} so far${calls.length ? `, latest ${calls.at(-1)}` : ''}.${waited}`,
    'Call SubagentStatus again with wait_ms to wait for its answer, or cancel: true to stop it.'
  ].join('\n\n')
}

/** Lists the session's background sub-agents, shows one, waits for it, stops it, or collects it. */
export function subagentStatusTool(background: BackgroundChildren, deps: DelegationDeps): Tool {
  return defineTool({
    name: SUBAGENT_STATUS,
    description: [
      'Check on the sub-agents Subagent started with background: true in this session. With no',
      'arguments: lists them (id, state, task). With id: how a running one is doing; for a',
      'finished one, its answer, given once (later calls only say how it ended). wait_ms waits up',
      'to that long for it to finish first. cancel: true stops it.'
    ].join(' '),
    inputSchema,
    readOnly: true,
    capabilities: anyAnswer,
    // A listing brings nothing in; an answer brings what the child's tools could.
    capabilitiesFor: (input) =>
      input.id ? (background.find(input.id)?.capabilities ?? noCapabilities) : noCapabilities,
    source: 'builtin',
    folderContent: false,
    needsFolder: false,
    defaultDecision: null,
    presentation: plainPresentation(SUBAGENT_STATUS, 'nothing'),
    async call(input, ctx) {
      const mine = background.list(ctx.sessionId)
      if (!input.id) {
        if (input.wait_ms !== undefined || input.cancel) {
          return errorOutput(
            'wait_ms and cancel need an id; call SubagentStatus with no arguments to list the background sub-agents.'
          )
        }
        return statusListing(mine, 'background sub-agent', listLine)
      }
      const run = mine.find((candidate) => candidate.id === input.id)
      if (!run) {
        return errorOutput(
          `There is no background sub-agent ${input.id} in this session; call SubagentStatus with no arguments to list them.`
        )
      }
      if (input.cancel && run.state === 'running') {
        background.cancel(run, 'cancelled with SubagentStatus')
        await run.finished
      } else if (input.wait_ms !== undefined) {
        await background.wait(run, input.wait_ms, ctx.signal)
      }
      if (run.state === 'running') return textOutput(runningView(run, input.wait_ms ?? null))
      const result = background.collect(run)
      if (!result) {
        return textOutput(
          `${run.id} has ended (${stateText(run)}). Its answer was already returned by an earlier SubagentStatus call and is not repeated.`
        )
      }
      // Its words enter the conversation now, and with them what the child read.
      widenParent(deps.session(ctx.sessionId), result.taint, deps)
      const header = `${run.id} (${run.agent}) ${stateText(run)}. Its result:`
      return {
        ...result.output,
        content: [{ type: 'text', text: header }, ...result.output.content]
      }
    }
  })
}
