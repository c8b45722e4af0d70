import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import {
  sequenceBatch,
  sequenceSnapshot,
  startSequence,
  type Batch,
  type Sequence,
  type Step
} from './output-sequence'

/** Where a followed job's output goes: a terminal, which says when it has taken a write in. */
export interface OutputSink {
  write(data: string, written: () => void): void
  /** Clears what was shown, before a follow starts again. */
  reset(): void
  /** The job's output could not be had (it was dismissed, or the call failed). */
  failed(message: string): void
}

interface Follower {
  jobId: string
  sink: OutputSink
  sequence: Sequence
  /** Bumped on each (re)start, so an answer to an older follow is ignored. */
  generation: number
}

const followers = new Set<Follower>()

/**
 * Streams one job's output into `sink`: the tail the job keeps, then every batch as it comes.
 * Each batch is acknowledged once the sink has taken it in, which is what lets the job go on:
 * a terminal that cannot keep up slows the job down instead of flooding the page. Returns the
 * function that stops following.
 */
export function followJob(jobId: string, sink: OutputSink): () => void {
  const follower: Follower = { jobId, sink, sequence: startSequence, generation: 0 }
  followers.add(follower)
  void start(follower)
  return () => {
    followers.delete(follower)
    void call('jobs.unfollow', { jobId }).catch(() => undefined)
  }
}

/** A `job.output` event: written to each terminal following that job. */
export function deliverOutput(payload: Batch & { jobId: string }): void {
  for (const follower of followers) {
    if (follower.jobId === payload.jobId) apply(follower, sequenceBatch(follower.sequence, payload))
  }
}

/** After a reconnect the server knows nothing of these follows: each starts again. */
export function refollowAll(): void {
  for (const follower of followers) {
    follower.sink.reset()
    void start(follower)
  }
}

async function start(follower: Follower): Promise<void> {
  const generation = ++follower.generation
  follower.sequence = startSequence
  try {
    const snapshot = await call('jobs.output', { jobId: follower.jobId })
    if (!followers.has(follower) || generation !== follower.generation) return
    apply(follower, sequenceSnapshot(follower.sequence, snapshot))
  } catch (error) {
    if (followers.has(follower)) follower.sink.failed(errorMessage(error))
  }
}

function apply(follower: Follower, step: Step): void {
  follower.sequence = step.next
  if (step.write === '') return
  const { jobId } = follower
  follower.sink.write(step.write, () => {
    if (step.ack > 0 && followers.has(follower)) {
      void call('jobs.ack', { jobId, chars: step.ack }).catch(() => undefined)
    }
  })
}
