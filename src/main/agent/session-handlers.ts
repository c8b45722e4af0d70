import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { RpcError } from '../../shared/contract'
import type { SessionSummary, TranscriptItem } from '../../shared/domain'
import type { EventHub } from '../events/event-hub'
import type { Handlers } from '../../shared/contract/handlers'
import type { SessionStore } from '../store/session-store'
import { exportSession } from './session-export'
import { transcriptKey } from './session'
import type { SessionService } from './session-service'

type SessionCall =
  'session.rename' | 'session.delete' | 'session.search' | 'session.fork' | 'session.export'

export interface SessionHandlerDeps {
  sessions: SessionService
  store: SessionStore
  hub: EventHub
  checkFolder: (folder: string) => Promise<string>
  /** Drops the checkpoints a session's turns took, when its deletion asks to. */
  dropCheckpoints?: (workspace: string, sessionId: string) => Promise<number>
  /** Stops what a session left running (background jobs and sub-agents) before it is deleted. */
  stopWork?: (sessionId: string) => Promise<void>
}

/** The session list's calls on recorded sessions: rename, delete, search, fork and export. */
export function sessionHandlers(deps: SessionHandlerDeps): Pick<Handlers, SessionCall> {
  const { sessions, store, hub } = deps
  const recorded = (sessionId: string): NonNullable<ReturnType<SessionStore['get']>> => {
    const row = store.get(sessionId)
    if (!row) {
      throw new RpcError(
        'not_found',
        `session ${sessionId} has not been recorded yet: send a message in it first`
      )
    }
    return row
  }
  return {
    'session.rename': async ({ sessionId, title }) => {
      const session = sessions.get(sessionId)
      session.title = title
      store.rename(sessionId, title)
      const summary = session.summary()
      hub.emit('session.updated', summary)
      return summary
    },
    'session.delete': async ({ sessionId, checkpoints }) => {
      const session = sessions.get(sessionId)
      if (session.running) sessions.drop(sessionId) // refuses, saying why
      // Its jobs and sub-agents end first, while the session is still there to record their
      // ends: then nothing works on, or records, for a deleted session.
      await deps.stopWork?.(sessionId)
      sessions.drop(sessionId)
      const deleted = store.delete(sessionId)
      // Its cut tool outputs go with it; nothing else refers to them.
      await rm(session.spill.dir, { recursive: true, force: true })
      if (checkpoints) await deps.dropCheckpoints?.(session.workspace, sessionId)
      return { deleted }
    },
    'session.search': async ({ workspace, query }) => {
      const folder = await deps.checkFolder(workspace)
      return { hits: store.search(folder, query) }
    },
    'session.fork': async ({ sessionId, itemKey, before }) => {
      const source = sessions.get(sessionId)
      const kept = forkedTranscript(source.transcript(), itemKey, before === true)
      const now = Date.now()
      const summary: SessionSummary = {
        id: randomUUID(),
        workspace: source.workspace,
        title: `${source.title} (fork)`,
        createdAt: now,
        updatedAt: now,
        messageCount: kept.filter((i) => i.kind === 'user' || i.kind === 'assistant').length,
        model: source.model,
        running: false,
        // What entered the source may be in the part kept: taint never narrows.
        taint: { ...source.taint },
        planning: source.planning,
        forkedFrom: source.id
      }
      store.insert(
        summary,
        source.id,
        kept.map((item) => ({
          kind: 'transcript.item',
          key: transcriptKey(item),
          payload: { item },
          text: item.kind === 'user' || item.kind === 'assistant' ? item.text : null,
          at: now
        }))
      )
      const copy = sessions.get(summary.id)
      // A file-less session's fork stays file-less, and an untrusted one's stays untrusted; the
      // summary below records both.
      copy.profile = source.profile
      if (!source.folderTrusted) copy.markFolderUntrusted()
      const forked = copy.summary()
      hub.emit('session.updated', forked)
      return forked
    },
    'session.export': async ({ sessionId, format }) => {
      const row = recorded(sessionId)
      const text = exportSession(row, store.events(sessionId), format)
      return { fileName: `${slug(row.title)}-${sessionId.slice(0, 8)}.${format}`, text }
    }
  }
}

/**
 * The transcript up to and including the item (with `before`, up to the item only): for a
 * reply, also its tool calls and the end of its turn when that follows. A turn left open by the
 * cut is closed as `forked`, so the new session does not read as interrupted.
 */
export function forkedTranscript(
  transcript: readonly TranscriptItem[],
  itemKey: string,
  before = false
): TranscriptItem[] {
  const index = transcript.findIndex((item) => transcriptKey(item) === itemKey)
  const cut = transcript[index]
  if (!cut) throw new RpcError('not_found', `there is no message ${itemKey} in this session`)
  let end = before ? index : index + 1
  if (cut.kind === 'assistant' && !before) {
    while (transcript[end]?.kind === 'tool') end++
    const next = transcript[end]
    if (next?.kind === 'turn-end' && next.turnId === cut.turnId) end++
  }
  const kept = transcript.slice(0, end)
  const last = kept.at(-1)
  if (last && (last.kind === 'assistant' || last.kind === 'tool')) {
    kept.push({
      kind: 'turn-end',
      turnId: last.turnId,
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0 },
      stopReason: 'forked',
      error: null,
      at: Date.now()
    })
  }
  return kept
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'session'
  )
}
