import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { ModelRef, SessionSummary } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import { transcriptKey } from '../agent/session'
import { exportSession } from '../agent/session-export'
import { forkedTranscript } from '../agent/session-fork'
import type { Services } from '../core'
import {
  compactThreshold,
  contextWindowFor,
  DEFAULT_CONTEXT_WINDOW
} from '../providers/context-window'
import { providerSettingsFor } from '../providers/provider-settings'
import { servedWindowFor } from '../providers/served-context-window'
import type { SessionStore } from '../store/session-store'
import { checkFolder } from '../workspace/check-folder'

type SessionsNeeds = Pick<
  Services,
  | 'sessions'
  | 'store'
  | 'hub'
  | 'approver'
  | 'questions'
  | 'settings'
  | 'checkpoints'
  | 'jobs'
  | 'background'
>

/** The session list and a session as it opens: listing, creating, reading, and the records' calls. */
export function sessionsApi(needs: SessionsNeeds): SliceHandlers<'sessions'> {
  const { sessions, hub, approver, questions } = needs
  const store = needs.store.sessions
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
    'session.list': async ({ workspace }) => {
      const folder = await checkFolder(workspace)
      const listed = sessions.list(folder)
      return {
        sessions: sessions.summaries(folder),
        pendingApprovals: listed.flatMap((s) => approver?.pending(s.id) ?? [])
      }
    },
    'session.create': async ({ workspace, profile }) => {
      const folder = await checkFolder(workspace)
      return (await sessions.create(folder, profile)).summary()
    },
    'session.get': async ({ sessionId, tail }) => {
      // A long session's first screen comes without loading it whole (see SessionService.view).
      const { summary, transcript, total, todos, branches } = sessions.view(sessionId, tail)
      return {
        session: { ...summary, sizeBytes: store.get(sessionId)?.sizeBytes },
        transcript,
        total,
        keys: transcript.map(transcriptKey),
        pendingApprovals: approver?.pending(sessionId) ?? [],
        todos,
        pendingQuestions: questions?.pending(sessionId) ?? [],
        branches
      }
    },
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
      await needs.jobs.stopSession(sessionId)
      await needs.background.stopSession(sessionId, 'its session was deleted')
      sessions.drop(sessionId)
      const deleted = store.delete(sessionId)
      // Its cut tool outputs go with it; nothing else refers to them.
      await rm(session.spill.dir, { recursive: true, force: true })
      if (checkpoints) await needs.checkpoints.removeSession(session.workspace, sessionId)
      return { deleted }
    },
    'session.search': async ({ workspace, query }) => {
      const folder = await checkFolder(workspace)
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
    },
    /**
     * The chat header's figures, worked out the way the next turn works them out (the same
     * window, served window and threshold), so the mark on the meter is where compaction happens.
     */
    'session.meters': async ({ sessionId }) => {
      // Not loading a recorded session: the header asks for these as the session opens.
      const session = sessions.meterReading(sessionId)
      const settings = needs.settings.snapshot()
      const ref = nextModel(session.model, settings)
      const served = ref
        ? await servedWindowFor(providerSettingsFor(ref, settings), ref.model)
        : null
      const contextWindow = ref
        ? contextWindowFor(ref, settings, served?.tokens)
        : DEFAULT_CONTEXT_WINDOW
      return {
        contextWindow: Math.max(1, Math.round(contextWindow)),
        compactAt: Math.max(1, Math.round(compactThreshold(ref, settings, served?.tokens))),
        // Kept in memory by the turn loop: after a restart it is unknown until the next reply.
        contextTokens: session.inputTokens > 0 ? session.inputTokens : null,
        totals: session.totals
      }
    }
  }
}

/** The model a session's next turn uses: its own, else the settings' default (as a turn does). */
function nextModel(model: ModelRef | null, settings: Settings): ModelRef | null {
  if (model) return model
  const fallback = settings.default_model
  return fallback ? { providerId: fallback.provider, model: fallback.model } : null
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
