import type { AnyEvent } from '../../../../shared/contract'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { onWorkspaceOpened } from '../sessions'
import { deliverOutput, refollowAll } from './job-feed'
import { initialJobsState, jobsReducer } from './jobs-reducer'
import { LazyTerminalView } from './lazy-terminal-view'

export const useJobs = createReducerStore(jobsReducer, initialJobsState)

const dispatch = useJobs.getState().dispatch

/** Reads the jobs of a project folder (the one the sessions store opened). */
export async function loadJobs(workspace: string): Promise<void> {
  dispatch({ type: 'load-started', workspace })
  try {
    const { jobs } = await call('jobs.list', { workspace })
    dispatch({ type: 'loaded', workspace, jobs })
  } catch (error) {
    dispatch({ type: 'load-failed', workspace, error: errorMessage(error) })
  }
}

/** Routes the job events; returns false for events that are not about jobs. */
export function applyJobEvent(event: AnyEvent): boolean {
  switch (event.event) {
    case 'job.updated':
      dispatch({ type: 'updated', job: event.payload })
      return true
    case 'job.output':
      deliverOutput(event.payload)
      return true
    case 'job.dismissed':
      dispatch({ type: 'dismissed', jobId: event.payload.jobId })
      return true
    default:
      return false
  }
}

let wired = false

/**
 * The terminal loads on first use (lazy-terminal-view.tsx). Once the window knows of a job, its
 * output is what the person is likely to look at next: the terminal then loads while the window
 * is idle, so opening the monitor does not wait for it and a first paint never does.
 */
function loadTerminalWhenJobsAppear(): void {
  const stop = useJobs.subscribe(({ state }) => {
    if (state.jobs.length === 0) return
    stop()
    const load = (): void => void LazyTerminalView.load()
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 })
    else setTimeout(load, 0)
  })
}

/**
 * Loads the jobs whenever a project folder opens, and again after a reconnect, when every
 * terminal starts its follow afresh. Called once, from the shell's wiring.
 */
export function wireJobs(): void {
  if (wired) return
  wired = true
  onWorkspaceOpened((workspace) => void loadJobs(workspace))
  loadTerminalWhenJobsAppear()
}

/** After a reconnect: what happened meanwhile is read again. */
export function reloadJobs(): void {
  const { workspace } = useJobs.getState().state
  if (workspace) void loadJobs(workspace)
  refollowAll()
}

export async function stopJob(jobId: string): Promise<void> {
  dispatch({ type: 'stop-requested', jobId })
  try {
    const { cancelled } = await call('jobs.cancel', { jobId })
    if (!cancelled) dispatch({ type: 'action-failed', jobId, error: 'The job had already ended.' })
  } catch (error) {
    dispatch({ type: 'action-failed', jobId, error: errorMessage(error) })
  }
}

/** Stops the foreground command of a tool call (the Stop on its card). */
export async function stopCall(sessionId: string, callId: string, jobId: string): Promise<void> {
  dispatch({ type: 'stop-requested', jobId })
  try {
    await call('tool.stop', { sessionId, callId })
  } catch (error) {
    dispatch({ type: 'action-failed', jobId, error: errorMessage(error) })
  }
}

export async function dismissJob(jobId: string): Promise<void> {
  try {
    const { dismissed } = await call('jobs.dismiss', { jobId })
    // Already gone on the other side (another window dismissed it): gone here too.
    if (!dismissed) dispatch({ type: 'dismissed', jobId })
  } catch (error) {
    dispatch({ type: 'action-failed', jobId, error: errorMessage(error) })
  }
}

export function toggleMonitor(): void {
  dispatch({ type: 'toggle' })
}

export function closeMonitor(): void {
  dispatch({ type: 'close' })
}

/** Whether the job monitor is open, for code outside React. */
export function monitorOpen(): boolean {
  return useJobs.getState().state.open
}

/** Whether the job monitor is open. */
export function useMonitorOpen(): boolean {
  return useJobs((s) => s.state.open)
}

export function selectJob(jobId: string): void {
  dispatch({ type: 'select', jobId })
}

/** Opens the monitor on one job (from its tool-call card). */
export function showJob(jobId: string): void {
  dispatch({ type: 'show', jobId })
}
