import { randomUUID } from 'node:crypto'
import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { CheckpointFile } from '../../shared/checkpoints'
import type { TranscriptItem } from '../../shared/domain'
import { transcriptKey, type Session } from '../agent/session'
import { announceItem } from '../agent/turn-sink'
import { notRestoredSentence } from '../checkpoints/not-restored'
import type { Services } from '../core'
import { checkFolder } from '../workspace/check-folder'

/** Text larger than this is not sent for a card's diff: only that it changed. */
const MAX_SHOWN_BYTES = 512 * 1024

/** The window's checkpoint calls: status, a card's diffs, Rewind, Revert and Undo restore. */
export function checkpointsApi({
  checkpoints,
  sessions,
  jobs,
  hub
}: Pick<Services, 'checkpoints' | 'sessions' | 'jobs' | 'hub'>): SliceHandlers<'checkpoints'> {
  return {
    'checkpoints.status': async ({ workspace }) => checkpoints.status(await checkFolder(workspace)),
    'checkpoints.file': async ({ sessionId, before, after, path }) => {
      const store = checkpoints.store(sessions.get(sessionId).workspace)
      const [old, now] = await Promise.all([
        store.fileAt(before, path).catch(() => null),
        store.fileAt(after, path).catch(() => null)
      ])
      return fileView(path, old, now)
    },
    'checkpoints.plan': async ({ sessionId, to, files }) => {
      const session = sessions.get(sessionId)
      const id = 'checkpoint' in to ? to.checkpoint : checkpointBefore(session, to.message)
      const runningJobs = jobs
        .list(session.workspace)
        .filter((job) => job.state === 'running')
        .map((job) => ({ id: job.id, command: job.command }))
      if (!id) return { checkpoint: null, changes: [], conflicts: [], notCovered: [], runningJobs }
      const plan = await checkpoints.store(session.workspace).plan(id, files)
      return { checkpoint: id, ...plan, runningJobs }
    },
    'checkpoints.restore': async ({ sessionId, checkpoint, files, replaceChanged, label }) => {
      const session = sessions.get(sessionId)
      const store = checkpoints.store(session.workspace)
      // Asked again here: a file may have changed since the dialog showed the plan.
      const plan = await store.plan(checkpoint, files)
      if (plan.conflicts.length > 0 && !replaceChanged) {
        throw new RpcError(
          'conflict',
          `these files changed since the agent's last checkpoint and would be replaced: ${plan.conflicts.join(', ')}. Confirm to replace them, or restore only the others.`
        )
      }
      const { undo, changes, notRestored } = await store.restore(checkpoint, files, sessionId)
      const item: TranscriptItem = {
        kind: 'restore',
        id: randomUUID(),
        to: checkpoint,
        undo: undo.id,
        // What was left as it is is said where the restore is shown, under its label.
        label: notRestored.length > 0 ? `${label}. ${notRestoredSentence(notRestored)}` : label,
        changes,
        at: Date.now()
      }
      session.upsert(item)
      announceItem(hub, session, item)
      return { undo: undo.id, changes }
    }
  }
}

/**
 * The checkpoint of the folder as it was before a user message: the message's own, taken before
 * its turn's first change; for a turn that changed nothing (or could not checkpoint), the first
 * one after it, since the agent changed nothing in between. Null: nothing changed since.
 */
function checkpointBefore(session: Session, itemKey: string): string | null {
  const transcript = session.transcript()
  const index = transcript.findIndex((item) => transcriptKey(item) === itemKey)
  const message = transcript[index]
  if (message?.kind !== 'user') {
    throw new RpcError('not_found', `there is no user message ${itemKey} in this session`)
  }
  for (const item of transcript.slice(index)) {
    if (item.kind === 'user' && item.checkpoint) return item.checkpoint
    if (item.kind !== 'tool') continue
    const files = item.call.files?.find((f) => 'before' in f)
    if (files && 'before' in files) return files.before
  }
  return null
}

function fileView(path: string, before: Buffer | null, after: Buffer | null): CheckpointFile {
  const both = [before, after].filter((b): b is Buffer => b !== null)
  if (both.some((b) => b.subarray(0, 8192).includes(0))) {
    return { path, before: null, after: null, shown: 'binary' }
  }
  if (both.some((b) => b.length > MAX_SHOWN_BYTES)) {
    return { path, before: null, after: null, shown: 'too-large' }
  }
  return {
    path,
    before: before?.toString('utf8') ?? null,
    after: after?.toString('utf8') ?? null,
    shown: 'text'
  }
}
