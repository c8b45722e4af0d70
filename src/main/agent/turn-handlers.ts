import { RpcError } from '../../shared/contract'
import type { Handlers } from '../../shared/contract/handlers'
import type { InteractiveApprover } from '../gate/interactive-approver'
import type { McpManager } from '../mcp/mcp-manager'
import type { ProviderLookup } from '../providers/provider-lookup'
import type { ProjectSettingsFiles } from '../settings/project-settings'
import { blockedMessage, settingsHealth } from '../settings/settings-health'
import type { SettingsStore } from '../settings/settings-store'
import { expandMessage, type LaunchPlaces } from '../skills/skill-handlers'
import type { SessionStore } from '../store/session-store'
import type { QuestionBroker } from '../tools/ask-user/question-broker'
import type { Catalog } from '../tools/catalog'
import { checkFolder } from '../workspace/check-folder'
import { checkAttachments, imageTaker } from './attachment-check'
import { transcriptKey } from './session'
import type { SessionService } from './session-service'
import type { ParallelRuns } from './subagent/parallel'

export interface TurnHandlerDeps {
  sessions: SessionService
  sessionStore: SessionStore
  settings: SettingsStore
  projectSettings: ProjectSettingsFiles
  providers: ProviderLookup
  approver: InteractiveApprover | null
  /** AskUser's questions; null with nobody to ask. */
  questions: QuestionBroker | null
  /** The person's folder of instructions, skills and commands. */
  userDir: string
  /** `--skills-dir`, `--commands-dir`, `--no-commands`: where `/command` expansions come from. */
  launchPlaces?: LaunchPlaces
  /** The built-in tools under the settings in force (a live view). */
  catalog: Catalog
  /** Built-in tools plus a project folder's MCP tools, under the settings in force. */
  catalogFor: (workspace: string) => Promise<Catalog>
  /** Select-mode Parallel runs waiting for a branch to be taken. */
  parallel: ParallelRuns | null
  /** The projects' MCP servers, which a message's resources are read from. */
  mcp: Pick<McpManager, 'readResource'>
}

type TurnCall =
  | 'session.list'
  | 'session.create'
  | 'session.get'
  | 'session.send'
  | 'session.edit'
  | 'session.selectBranch'
  | 'session.cancel'
  | 'session.setPlanning'
  | 'session.setModel'
  | 'parallel.take'
  | 'question.pending'
  | 'question.answer'
  | 'spill.read'
  | 'tools.list'

/** Live sessions: starting, sending, stopping, and what a turn left behind. */
export function turnHandlers(deps: TurnHandlerDeps): Pick<Handlers, TurnCall> {
  const { sessions, settings } = deps
  return {
    'session.list': async ({ workspace }) => {
      const folder = await checkFolder(workspace)
      const listed = sessions.list(folder)
      return {
        sessions: sessions.summaries(folder),
        pendingApprovals: listed.flatMap((s) => deps.approver?.pending(s.id) ?? [])
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
        session: { ...summary, sizeBytes: deps.sessionStore.get(sessionId)?.sizeBytes },
        transcript,
        total,
        keys: transcript.map(transcriptKey),
        pendingApprovals: deps.approver?.pending(sessionId) ?? [],
        todos,
        pendingQuestions: deps.questions?.pending(sessionId) ?? [],
        branches
      }
    },
    // A `/command args` of a command file or skill is expanded here, so every client gets it.
    'session.send': async ({ sessionId, text, attachments }) => {
      const { workspace, jail, model } = sessions.get(sessionId)
      // Read again before every turn: an edit made in an editor applies from this message on,
      // and a broken file with nothing valid to fall back on stops the turn before it starts.
      const health = await settingsHealth(settings, deps.projectSettings, workspace, true)
      if (health.blocked) throw new RpcError('conflict', blockedMessage(health))
      const checked = attachments?.length
        ? await checkAttachments(
            attachments,
            jail,
            imageTaker(model, (await settings.get()).settings),
            (server, uri) => deps.mcp.readResource(workspace, server, uri)
          )
        : []
      const expanded = await expandMessage(workspace, deps.userDir, text, deps.launchPlaces)
      if (expanded.provenance) sessions.admitUntrusted(sessionId)
      return { turnId: await sessions.send(sessionId, expanded.text, checked) }
    },
    // An edit is sent as a message is: the settings checked and a `/command` expanded.
    'session.edit': async ({ sessionId, itemKey, text }) => {
      const { workspace } = sessions.get(sessionId)
      const health = await settingsHealth(settings, deps.projectSettings, workspace, true)
      if (health.blocked) throw new RpcError('conflict', blockedMessage(health))
      const expanded = await expandMessage(workspace, deps.userDir, text, deps.launchPlaces)
      if (expanded.provenance) sessions.admitUntrusted(sessionId)
      return { turnId: await sessions.edit(sessionId, itemKey, expanded.text) }
    },
    'session.selectBranch': async ({ sessionId, itemKey }) =>
      sessions.selectBranch(sessionId, itemKey).summary(),
    'session.cancel': async ({ sessionId }) => ({ cancelled: sessions.cancel(sessionId) }),
    'session.setPlanning': async ({ sessionId, planning }) =>
      sessions.setPlanning(sessionId, planning).summary(),
    'session.setModel': async ({ sessionId, model }) => {
      const known = deps.providers.knows(model, (await settings.get()).settings)
      if (!known) throw new RpcError('not_found', `there is no provider "${model.providerId}"`)
      return sessions.setModel(sessionId, model).summary()
    },
    'parallel.take': async ({ sessionId, runId, branch }) => {
      if (!deps.parallel) throw new RpcError('unsupported', 'parallel runs are not available here')
      try {
        return await deps.parallel.take(sessionId, runId, branch)
      } catch (error) {
        throw new RpcError('conflict', error instanceof Error ? error.message : String(error))
      }
    },
    // Held by the turn that asked: a session not running has none, and is not read for them.
    'question.pending': async ({ sessionId }) => ({
      questions: deps.questions?.pending(sessionId) ?? []
    }),
    'question.answer': async ({ questionId, answer }) => ({
      ok: deps.questions?.answer(questionId, answer) ?? false
    }),
    'spill.read': async ({ sessionId, path: requested }) => {
      const read = await sessions.get(sessionId).spill.read(requested)
      if (!read.ok) throw new RpcError('invalid_input', read.message)
      const { path: file, text, totalBytes, shownBytes } = read
      return { path: file, text, totalBytes, shownBytes }
    },
    'tools.list': async ({ workspace }) => ({
      tools: (workspace
        ? await deps.catalogFor(await checkFolder(workspace))
        : deps.catalog
      ).describe()
    })
  }
}
