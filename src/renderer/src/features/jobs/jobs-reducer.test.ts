import { describe, expect, it } from 'vitest'
import type { ToolCallView, ToolDisplay } from '../../../../shared/domain'
import type { JobSummary } from '../../../../shared/jobs'
import {
  initialJobsState,
  jobOfCall,
  jobsReducer,
  monitorJobs,
  runningCount,
  shownJob,
  startedJob,
  type JobsAction,
  type JobsState
} from './jobs-reducer'

const ws = '/home/ana/project'

function job(id: string, extra: Partial<JobSummary> = {}): JobSummary {
  return {
    id,
    sessionId: 's1',
    workspace: ws,
    callId: `call-${id}`,
    background: true,
    command: `run ${id}`,
    description: null,
    state: 'running',
    exitCode: null,
    stopReason: null,
    startedAt: Number(id.replace(/\D/g, '')) * 1000,
    endedAt: null,
    outputBytes: 0,
    droppedBytes: 0,
    urls: [],
    ...extra
  }
}

/** A finished Shell call as its card has it, with the result's display field (or none). */
function shellCall(
  id: string,
  display: ToolDisplay | undefined,
  text = 'Started in the background.'
): ToolCallView {
  return {
    id,
    name: 'Shell',
    input: { command: 'npm run dev', background: true },
    state: 'done',
    readOnly: false,
    capabilities: null,
    startedAt: 1,
    endedAt: 2,
    output: { content: [{ type: 'text', text }], isError: false, external: false, display },
    refusedBy: null
  }
}

function run(...actions: JobsAction[]): JobsState {
  return actions.reduce(jobsReducer, initialJobsState)
}

const loaded = (...jobs: JobSummary[]): JobsAction[] => [
  { type: 'load-started', workspace: ws },
  { type: 'loaded', workspace: ws, jobs }
]

describe('jobsReducer', () => {
  it('lists background jobs newest first, and shows the running one by default', () => {
    const state = run(
      ...loaded(
        job('j1', { state: 'done', exitCode: 0 }),
        job('j2'),
        job('j3', { state: 'failed' })
      )
    )
    expect(monitorJobs(state).map((j) => j.id)).toEqual(['j3', 'j2', 'j1'])
    expect(shownJob(state)?.id).toBe('j2')
    expect(runningCount(state)).toBe(1)
  })

  it('shows the job the person picked', () => {
    const state = run(...loaded(job('j1'), job('j2')), { type: 'select', jobId: 'j1' })
    expect(shownJob(state)?.id).toBe('j1')
  })

  it('keeps a finished job until it is dismissed', () => {
    let state = run(...loaded(job('j1')), { type: 'select', jobId: 'j1' })
    state = jobsReducer(state, { type: 'updated', job: job('j1', { state: 'stopped' }) })
    expect(monitorJobs(state)[0]?.state).toBe('stopped')
    state = jobsReducer(state, { type: 'dismissed', jobId: 'j1' })
    expect(monitorJobs(state)).toEqual([])
    expect(state.selectedId).toBeNull()
  })

  it('ignores jobs of other project folders', () => {
    const state = run(...loaded(), { type: 'updated', job: job('j9', { workspace: '/elsewhere' }) })
    expect(state.jobs).toEqual([])
  })

  it('keeps the later of a listed job and an event that crossed the answer', () => {
    const state = run(
      { type: 'load-started', workspace: ws },
      { type: 'updated', job: job('j1', { state: 'done', exitCode: 0 }) },
      { type: 'updated', job: job('j2') },
      { type: 'loaded', workspace: ws, jobs: [job('j1')] }
    )
    expect(state.jobs.map((j) => [j.id, j.state])).toEqual([
      ['j1', 'done'],
      ['j2', 'running']
    ])
  })

  it('keeps a foreground command only while it runs, and finds it by its call', () => {
    let state = run(...loaded(), {
      type: 'updated',
      job: job('j1', { background: false, callId: 'c-7' })
    })
    expect(jobOfCall(state, 's1', 'c-7')?.id).toBe('j1')
    expect(jobOfCall(state, 's2', 'c-7')).toBeNull()
    expect(monitorJobs(state)).toEqual([])
    state = jobsReducer(state, {
      type: 'updated',
      job: job('j1', { background: false, callId: 'c-7', state: 'stopped' })
    })
    expect(jobOfCall(state, 's1', 'c-7')).toBeNull()
  })

  it('marks a job stopping until it ends, and clears the mark when the stop fails', () => {
    let state = run(...loaded(job('j1'), job('j2')))
    state = jobsReducer(state, { type: 'stop-requested', jobId: 'j1' })
    state = jobsReducer(state, { type: 'stop-requested', jobId: 'j2' })
    expect(state.stopping).toEqual(['j1', 'j2'])
    state = jobsReducer(state, { type: 'updated', job: job('j1', { state: 'stopped' }) })
    state = jobsReducer(state, { type: 'action-failed', jobId: 'j2', error: 'gone' })
    expect(state.stopping).toEqual([])
    expect(state.actionError).toBe('gone')
  })

  it('links a background Shell card to the job its result names as a field', () => {
    const state = run(...loaded(job('j1', { callId: 'c-1' }), job('j2', { callId: 'c-2' })))
    // The text says another job: the window goes by the field, never by the sentence.
    const card = shellCall('c-1', { kind: 'job', jobId: 'j2' }, 'Started j1 in the background.')
    expect(startedJob(state, 's1', card)?.id).toBe('j2')
    expect(startedJob(state, 's1', { ...card, state: 'running' })).toBeNull()
    expect(startedJob(state, 's1', shellCall('c-1', { kind: 'job', jobId: 'j9' }))).toBeNull()
  })

  it('links a card recorded before the field by the job that its call started', () => {
    const state = run(...loaded(job('j1', { callId: 'c-1' }), job('j2', { callId: 'c-2' })))
    const old = shellCall('c-2', undefined, 'Started bashcmd-7 in the background.')
    expect(startedJob(state, 's1', old)?.id).toBe('j2')
    // Another session's call of the same id, or a foreground command, is not its job.
    expect(startedJob(state, 's2', old)).toBeNull()
    const foreground = run(...loaded(job('j3', { callId: 'c-3', background: false })))
    expect(startedJob(foreground, 's1', shellCall('c-3', undefined))).toBeNull()
  })

  it('opens the panel on a given job', () => {
    const state = run(...loaded(job('j1'), job('j2')), { type: 'show', jobId: 'j1' })
    expect(state.open).toBe(true)
    expect(shownJob(state)?.id).toBe('j1')
    expect(jobsReducer(state, { type: 'toggle' }).open).toBe(false)
  })

  it('starts afresh for another folder but keeps the panel as it was', () => {
    const state = run(
      ...loaded(job('j1')),
      { type: 'toggle' },
      {
        type: 'load-started',
        workspace: '/other'
      }
    )
    expect(state).toMatchObject({ workspace: '/other', jobs: [], open: true, status: 'loading' })
  })
})
