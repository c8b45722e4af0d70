import { z } from 'zod'
import { formatSpan, type Job } from '../../jobs/job'
import type { JobManager } from '../../jobs/job-manager'
import { defineTool, textOutput, type Capabilities, type Tool } from '../tool'
import { counted, plainPresentation } from '../tool-presentation'
import { jobResult, outputTail, RUNNING_TAIL_CHARS, statusLine } from './job-result'
import {
  notFinishedWithin,
  statusControls,
  statusId,
  statusTarget,
  type StatusWords
} from '../status-tool'

/** It shows what commands printed (private data); it starts nothing and sends nothing anywhere. */
export const shellStatusCapabilities: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}

const inputSchema = z.strictObject({
  job_id: statusId(
    /^bashcmd-\d+$/,
    'a job id looks like bashcmd-3',
    'The job to look at, as Shell returned it (bashcmd-N). Leave out to list the jobs.'
  ),
  ...statusControls('the job', 'Stop the job and everything it started, then return its result.')
})

const words: StatusWords = {
  tool: 'ShellStatus',
  noun: 'background job',
  id: 'a job_id',
  all: 'the jobs'
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString('en-GB', { hour12: false })
}

/**
 * How a listed job stands. A stopped job's shell still leaves an exit code (its trap runs, or the
 * kill is reported as 0), so the state decides first and the code is told only for a job that
 * ended by itself.
 */
function listState(job: Job): string {
  switch (job.state) {
    case 'running':
      return `running for ${formatSpan(job.elapsedMs)}`
    case 'stopped':
      return `cancelled (${job.stopReason ?? 'stopped'})`
    case 'timed-out':
      return job.stopReason ?? 'timed out'
    case 'done':
    case 'failed':
      return job.exitCode !== null
        ? `exited with code ${job.exitCode}`
        : (job.stopReason ?? job.state)
  }
}

function listLine(job: Job): string {
  const state = listState(job)
  const collected = job.running
    ? ''
    : job.collected
      ? ' · result collected'
      : ' · result not collected yet'
  return `- ${job.id} · ${state} · started ${clock(job.startedAt)}${collected} · \`${job.command}\``
}

function runningView(job: Job, waitedMs: number | null): string {
  const { text, note } = outputTail(job, RUNNING_TAIL_CHARS)
  return [
    `${statusLine(job)}${notFinishedWithin(waitedMs)} Command: \`${job.command}\``,
    text === '' ? '(no output yet)' : `Latest output:\n${text}`,
    note,
    'Call ShellStatus again with wait_ms to wait for it, or cancel: true to stop it.'
  ]
    .filter((part) => part)
    .join('\n\n')
}

/** Lists the session's background jobs, shows one, waits for it, or stops it. */
export function shellStatusTool(jobs: JobManager): Tool {
  return defineTool({
    name: 'ShellStatus',
    description: [
      'Check on the background jobs Shell started in this session. With no arguments: lists',
      'them (id, state, exit code or stop reason, start time). With job_id: the command and the',
      'latest output of a running job; for a finished job, its whole result, given once (later',
      'calls only say how it ended). wait_ms waits up to that long for the job to finish first.',
      'cancel: true stops the job and everything it started, and returns its result.'
    ].join(' '),
    inputSchema,
    readOnly: true,
    capabilities: shellStatusCapabilities,
    source: 'builtin',
    // What a job printed.
    folderContent: true,
    needsFolder: true,
    defaultDecision: null,
    presentation: {
      ...plainPresentation('ShellStatus', 'nothing'),
      grouped: counted('checked', 'job', 'jobs'),
      resultView: 'terminal'
    },
    async call(input, ctx) {
      const mine = jobs.backgroundJobs(ctx.sessionId)
      const picked = statusTarget(mine, input.job_id, input, words, listLine)
      if ('output' in picked) return picked.output
      const job = picked.target
      if (input.cancel && job.running) {
        job.stop('model')
        await job.finished
      } else if (input.wait_ms !== undefined && job.running) {
        await jobs.wait(job, input.wait_ms, ctx.signal)
      }
      if (job.running) return textOutput(runningView(job, input.wait_ms ?? null))
      if (job.collected) {
        return textOutput(
          `${job.id} has ended. ${statusLine(job)} Its output was already returned by an earlier ShellStatus call and is not repeated.`
        )
      }
      const result = jobResult(job, `${job.id}: \`${job.command}\``)
      jobs.markCollected(job)
      return result
    }
  })
}
