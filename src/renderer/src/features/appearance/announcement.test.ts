import { describe, expect, it } from 'vitest'
import type { AnyEvent } from '../../../../shared/contract'
import type { JobSummary } from '../../../../shared/jobs'
import { announcementFor, createAnnouncements } from './announcement'

const titles: Record<string, string> = { s1: 'Fix the tests', s2: '' }
const titleOf = (id: string): string | null => titles[id] ?? null

function job(over: Partial<JobSummary>): AnyEvent {
  const payload: JobSummary = {
    id: 'bashcmd-1',
    sessionId: 's1',
    workspace: '/w',
    callId: 'c1',
    background: true,
    command: 'npm run dev',
    description: 'Start the dev server',
    state: 'running',
    exitCode: null,
    stopReason: null,
    startedAt: 1,
    endedAt: null,
    outputBytes: 0,
    droppedBytes: 0,
    urls: [],
    ...over
  }
  return { event: 'job.updated', payload } as AnyEvent
}

const usage = { inputTokens: 1, outputTokens: 1 }

describe('announcementFor', () => {
  it('announces a finished reply, but not one the person stopped', () => {
    const done = {
      event: 'turn.completed',
      payload: { sessionId: 's1', turnId: 't', usage, stopReason: 'end_turn' }
    } as unknown as AnyEvent
    expect(announcementFor(done, titleOf)).toBe('Reply finished in “Fix the tests”.')
    const stopped = {
      event: 'turn.completed',
      payload: { sessionId: 's1', turnId: 't', usage, stopReason: 'cancelled' }
    } as unknown as AnyEvent
    expect(announcementFor(stopped, titleOf)).toBeNull()
  })

  it('names an untitled session as new and says when a reply failed', () => {
    const failed = {
      event: 'turn.failed',
      payload: { sessionId: 's2', turnId: 't', error: 'The provider refused the key.' }
    } as AnyEvent
    expect(announcementFor(failed, titleOf)).toBe(
      'The reply in “New session” failed: The provider refused the key.'
    )
  })

  it('announces a waiting approval with the tool it is for', () => {
    const waiting = {
      event: 'approval.requested',
      payload: { sessionId: 's1', tool: 'Shell' }
    } as unknown as AnyEvent
    expect(announcementFor(waiting, titleOf)).toBe(
      'Shell is waiting for your approval in “Fix the tests”.'
    )
  })

  it('stays quiet about sessions that are not this window’s and about other events', () => {
    const other = {
      event: 'approval.requested',
      payload: { sessionId: 'elsewhere', tool: 'Shell' }
    } as unknown as AnyEvent
    expect(announcementFor(other, titleOf)).toBeNull()
    expect(
      announcementFor(job({ state: 'done', exitCode: 0, sessionId: 'elsewhere' }), titleOf)
    ).toBeNull()
    expect(
      announcementFor({ event: 'job.dismissed', payload: { jobId: 'x' } } as AnyEvent, titleOf)
    ).toBeNull()
  })
})

describe('createAnnouncements', () => {
  it('announces a background job once when it ends, however many updates follow', () => {
    const next = createAnnouncements(titleOf)
    expect(next(job({ state: 'running' }))).toBeNull()
    expect(next(job({ state: 'done', exitCode: 0 }))).toBe(
      'Job finished: Start the dev server (exit code 0).'
    )
    expect(next(job({ state: 'done', exitCode: 0, outputBytes: 10 }))).toBeNull()
  })

  it('says how a job ended when it did not succeed, and names it by its command without a description', () => {
    const next = createAnnouncements(titleOf)
    expect(next(job({ id: 'j2', state: 'failed', exitCode: 2, description: null }))).toBe(
      'Job failed: npm run dev (exit code 2).'
    )
    expect(next(job({ id: 'j3', state: 'stopped', stopReason: 'stopped by the person' }))).toBe(
      'Job stopped: Start the dev server (stopped by the person).'
    )
    expect(next(job({ id: 'j4', state: 'timed-out' }))).toBe('Job timed out: Start the dev server.')
  })

  it('leaves foreground commands to the reply they belong to', () => {
    const next = createAnnouncements(titleOf)
    expect(next(job({ background: false, state: 'done', exitCode: 0 }))).toBeNull()
  })

  it('announces a job again after it ran again under the same id', () => {
    const next = createAnnouncements(titleOf)
    expect(next(job({ state: 'done', exitCode: 0 }))).not.toBeNull()
    expect(next(job({ state: 'running' }))).toBeNull()
    expect(next(job({ state: 'done', exitCode: 0 }))).not.toBeNull()
  })
})
