import { z } from 'zod'
import { formatSpan } from '../../jobs/job'
import {
  folderlessReadOnlyTool,
  noCapabilities,
  textOutput,
  type Capabilities,
  type Tool
} from '../../tools/tool'
import { plainPresentation } from '../../tools/tool-presentation'
import type { BackgroundChildren, BackgroundRun } from './background-children'
import { widenParent, type DelegationDeps } from './child-run'
import {
  notFinishedWithin,
  statusControls,
  statusId,
  statusTarget,
  type StatusWords
} from '../../tools/status-tool'

export const SUBAGENT_STATUS = 'SubagentStatus'

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
  id: statusId(
    /^subagent-\d+$/,
    'a background sub-agent id looks like subagent-2',
    'The background sub-agent to look at, as Subagent returned it (subagent-N). Leave out to list them.'
  ),
  ...statusControls('it', 'Stop it, then return what it has to say.')
})

const words: StatusWords = {
  tool: SUBAGENT_STATUS,
  noun: 'background sub-agent',
  id: 'an id',
  all: 'the background sub-agents'
}

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
  return [
    `${run.id} (${run.agent}) is ${stateText(run)}: ${calls.length} tool call${calls.length === 1 ? '' : 's'} so far${calls.length ? `, latest ${calls.at(-1)}` : ''}.${notFinishedWithin(waitedMs)}`,
    'Call SubagentStatus again with wait_ms to wait for its answer, or cancel: true to stop it.'
  ].join('\n\n')
}

/** Lists the session's background sub-agents, shows one, waits for it, stops it, or collects it. */
export function subagentStatusTool(background: BackgroundChildren, deps: DelegationDeps): Tool {
  return folderlessReadOnlyTool({
    name: SUBAGENT_STATUS,
    description: [
      'Check on the sub-agents Subagent started with background: true in this session. With no',
      'arguments: lists them (id, state, task). With id: how a running one is doing; for a',
      'finished one, its answer, given once (later calls only say how it ended). wait_ms waits up',
      'to that long for it to finish first. cancel: true stops it.'
    ].join(' '),
    inputSchema,
    capabilities: anyAnswer,
    // A listing brings nothing in; an answer brings what the child's tools could.
    capabilitiesFor: (input) =>
      input.id ? (background.find(input.id)?.capabilities ?? noCapabilities) : noCapabilities,
    presentation: plainPresentation(SUBAGENT_STATUS, 'nothing'),
    async call(input, ctx) {
      const picked = statusTarget(background.list(ctx.sessionId), input.id, input, words, listLine)
      if ('output' in picked) return picked.output
      const run = picked.target
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
