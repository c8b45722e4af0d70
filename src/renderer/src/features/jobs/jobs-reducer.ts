import type { ToolCallView } from '../../../../shared/domain'
import type { JobSummary } from '../../../../shared/jobs'

export interface JobsState {
  /** The project folder whose jobs are shown (canonical, as the sessions store has it). */
  workspace: string | null
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  /** Background jobs until dismissed, and foreground commands while they run; oldest first. */
  jobs: JobSummary[]
  /** The monitor panel is showing. */
  open: boolean
  /** The job the person picked; when null the monitor shows the newest. */
  selectedId: string | null
  /** Jobs a Stop was asked for and that have not ended yet. */
  stopping: string[]
  actionError: string | null
}

export type JobsAction =
  | { type: 'load-started'; workspace: string }
  | { type: 'loaded'; workspace: string; jobs: JobSummary[] }
  | { type: 'load-failed'; workspace: string; error: string }
  | { type: 'updated'; job: JobSummary }
  | { type: 'dismissed'; jobId: string }
  | { type: 'toggle' }
  | { type: 'close' }
  | { type: 'show'; jobId: string }
  | { type: 'select'; jobId: string }
  | { type: 'stop-requested'; jobId: string }
  | { type: 'action-failed'; jobId: string; error: string }

export const initialJobsState: JobsState = {
  workspace: null,
  status: 'idle',
  error: null,
  jobs: [],
  open: false,
  selectedId: null,
  stopping: [],
  actionError: null
}

/** Of two summaries of one job, the later: a job only moves forward (running → ended, more URLs). */
function later(a: JobSummary, b: JobSummary): JobSummary {
  if ((a.state === 'running') !== (b.state === 'running')) return a.state === 'running' ? b : a
  return b.outputBytes >= a.outputBytes && b.urls.length >= a.urls.length ? b : a
}

function upsert(jobs: JobSummary[], job: JobSummary): JobSummary[] {
  const index = jobs.findIndex((j) => j.id === job.id)
  if (index === -1) return [...jobs, job].sort((a, b) => a.startedAt - b.startedAt)
  const next = jobs.slice()
  next[index] = later(jobs[index] as JobSummary, job)
  return next
}

/** A foreground command is only of interest while it runs (its card shows the rest). */
function kept(job: JobSummary): boolean {
  return job.background || job.state === 'running'
}

export function jobsReducer(state: JobsState, action: JobsAction): JobsState {
  switch (action.type) {
    case 'load-started':
      if (action.workspace !== state.workspace) {
        return {
          ...initialJobsState,
          open: state.open,
          workspace: action.workspace,
          status: 'loading'
        }
      }
      return { ...state, status: 'loading', error: null }
    case 'loaded': {
      if (action.workspace !== state.workspace) return state
      // Events that crossed the answer on the wire may be newer than it: keep the later of each.
      let jobs = action.jobs.filter(kept)
      for (const job of state.jobs) jobs = upsert(jobs, job)
      return { ...state, status: 'ready', jobs: jobs.filter(kept) }
    }
    case 'load-failed':
      if (action.workspace !== state.workspace) return state
      return { ...state, status: 'error', error: action.error }
    case 'updated': {
      const { job } = action
      if (job.workspace !== state.workspace) return state
      const stopping =
        job.state === 'running' ? state.stopping : state.stopping.filter((id) => id !== job.id)
      const jobs = kept(job) ? upsert(state.jobs, job) : state.jobs.filter((j) => j.id !== job.id)
      return { ...state, jobs, stopping }
    }
    case 'dismissed':
      return {
        ...state,
        jobs: state.jobs.filter((j) => j.id !== action.jobId),
        selectedId: state.selectedId === action.jobId ? null : state.selectedId,
        stopping: state.stopping.filter((id) => id !== action.jobId)
      }
    case 'toggle':
      return { ...state, open: !state.open, actionError: null }
    case 'close':
      return { ...state, open: false, actionError: null }
    case 'show':
      return { ...state, open: true, selectedId: action.jobId, actionError: null }
    case 'select':
      return { ...state, selectedId: action.jobId, actionError: null }
    case 'stop-requested':
      if (state.stopping.includes(action.jobId)) return state
      return { ...state, stopping: [...state.stopping, action.jobId], actionError: null }
    case 'action-failed':
      return {
        ...state,
        stopping: state.stopping.filter((id) => id !== action.jobId),
        actionError: action.error
      }
  }
}

/** The jobs the monitor lists: background ones, newest first. */
export function monitorJobs(state: JobsState): JobSummary[] {
  return state.jobs.filter((job) => job.background).reverse()
}

/** The job the monitor shows: the one picked, else the newest running one, else the newest. */
export function shownJob(state: JobsState): JobSummary | null {
  const listed = monitorJobs(state)
  return (
    listed.find((job) => job.id === state.selectedId) ??
    listed.find((job) => job.state === 'running') ??
    listed[0] ??
    null
  )
}

export function runningCount(state: JobsState): number {
  return state.jobs.filter((job) => job.background && job.state === 'running').length
}

/** The command a tool call is running in the foreground, if it is running. */
export function jobOfCall(
  state: JobsState,
  sessionId: string | null,
  callId: string
): JobSummary | null {
  return (
    state.jobs.find(
      (job) => job.callId === callId && job.sessionId === sessionId && !job.background
    ) ?? null
  )
}

/**
 * The background job a finished Shell call started, while the monitor lists it. The result names
 * it as a field; a card recorded before that field existed is matched by the call that started
 * the job instead (jobs carry their call), never by reading the sentence meant for the model.
 */
export function startedJob(
  state: JobsState,
  sessionId: string | null,
  call: ToolCallView
): JobSummary | null {
  if (call.state !== 'done' || !call.output) return null
  const display = call.output.display
  if (display?.kind === 'job') {
    return state.jobs.find((job) => job.id === display.jobId && job.background) ?? null
  }
  if (display) return null
  return (
    state.jobs.find(
      (job) => job.background && job.callId === call.id && job.sessionId === sessionId
    ) ?? null
  )
}
