import { stat, realpath } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { RpcError } from '../../shared/contract'
import { providerSettingsSchema, type SettingsIssue } from '../../shared/settings'
import type { SessionService } from '../agent/session-service'
import { sessionHandlers } from '../agent/session-handlers'
import type { SessionStore } from '../store/session-store'
import type { EventHub } from './event-hub'
import { describeFailure } from '../agent/turn-loop'
import type { ParallelRuns } from '../agent/subagent/parallel'
import type { InteractiveApprover } from '../gate/interactive-approver'
import { jobHandlers } from '../jobs/job-handlers'
import type { JobManager } from '../jobs/job-manager'
import { mcpHandlers } from '../mcp/mcp-handlers'
import type { McpManager } from '../mcp/mcp-manager'
import { createProvider, type KeySource } from '../providers/create-provider'
import { modelInventory } from '../providers/model-inventory'
import type { ProjectSettingsFiles } from '../settings/project-settings'
import { blockedMessage, settingsHealth } from '../settings/settings-health'
import type { SettingsStore } from '../settings/settings-store'
import type { Catalog } from '../tools/catalog'
import { memoryHandlers } from '../tools/memory/memory-handlers'
import { websearchHandlers } from '../tools/web/web-handlers'
import type { MemoryStore } from '../store/memory-store'
import type { RecentFolders } from '../workspace/recent-folders'
import type { Handlers } from './router'
import type { RuleBook, RuleTarget } from '../gate/rule-book'
import { previewRule } from '../gate/rule-preview'
import { version } from '../version'
import { expandMessage, skillHandlers } from '../skills/skill-handlers'
import type { QuestionBroker } from '../tools/ask-user/question-broker'
import { userConfigDir } from '../skills/user-dir'

/** What only the host (Electron, browser mode) can do; absent hooks mean "not here". */
export interface HostHooks {
  pickFolder?: () => Promise<string | null>
  /** Opens (or focuses) the folder's own window; true when it was already open elsewhere. */
  openWorkspace?: (folder: string, caller: string) => Promise<boolean>
  storeSecret?: (name: string, value: string) => Promise<void>
  readSecret?: (name: string) => string | undefined
}

export interface HandlerDeps {
  host: 'electron' | 'browser' | 'cli'
  dataDir: string
  workspace: string | null
  hooks: HostHooks
  catalog: Catalog
  /** Built-in tools plus a project folder's MCP tools. */
  catalogFor: (workspace: string) => Promise<Catalog>
  mcp: McpManager
  jobs: JobManager
  sessions: SessionService
  settings: SettingsStore
  /** The projects' own settings files, with their last valid copies. */
  projectSettings: ProjectSettingsFiles
  approver: InteractiveApprover | null
  keys: KeySource
  recent: RecentFolders
  rules: RuleBook
  memory: MemoryStore
  /** Recorded sessions (rename, delete, search, fork, export); `hub` tells windows of changes. */
  sessionStore: SessionStore
  hub: EventHub
  /** AskUser's questions; null with nobody to ask. */
  questions?: QuestionBroker | null
  /** The person's folder of instructions, skills and commands. */
  userDir?: string
  skillsEnabled?: boolean
  /** Select-mode Parallel runs waiting for a branch to be taken. */
  parallel?: ParallelRuns
}

const PROVIDER_TEST_TIMEOUT_MS = 15_000

export function createHandlers(deps: HandlerDeps): Handlers {
  const { sessions, settings, hooks } = deps
  /** Which rules a call is about: the folder's, and the session's own when one is named. */
  const ruleTarget = async (workspace: string, sessionId?: string): Promise<RuleTarget> => ({
    workspace: await checkFolder(workspace),
    sessionRules: sessionId ? sessions.get(sessionId).rules : undefined
  })
  return {
    'app.info': async () => ({
      mode: deps.host,
      version,
      dataDir: deps.dataDir,
      canPickFolder: Boolean(hooks.pickFolder),
      canStoreSecrets: Boolean(hooks.storeSecret),
      workspace: deps.workspace
    }),
    'workspace.recent': async () => ({ folders: await deps.recent.list() }),
    'workspace.open': async ({ path: requested }, ctx) => {
      const folder = await checkFolder(requested)
      await deps.recent.add(folder)
      const openedElsewhere = (await hooks.openWorkspace?.(folder, ctx.caller)) ?? false
      return { path: folder, openedElsewhere }
    },
    'workspace.pickFolder': async () => {
      if (!hooks.pickFolder) {
        throw new RpcError('unsupported', 'choosing a folder needs the desktop app; type its path')
      }
      return { path: await hooks.pickFolder() }
    },
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
    'session.get': async ({ sessionId }) => {
      const session = sessions.get(sessionId)
      return {
        session: { ...session.summary(), sizeBytes: deps.sessionStore.get(sessionId)?.sizeBytes },
        transcript: session.transcript(),
        pendingApprovals: deps.approver?.pending(sessionId) ?? [],
        todos: session.todos.items(),
        pendingQuestions: deps.questions?.pending(sessionId) ?? []
      }
    },
    // A `/command args` of a command file or skill is expanded here, so every client gets it.
    'session.send': async ({ sessionId, text }) => {
      const { workspace } = sessions.get(sessionId)
      // Read again before every turn: an edit made in an editor applies from this message on,
      // and a broken file with nothing valid to fall back on stops the turn before it starts.
      const health = await settingsHealth(settings, deps.projectSettings, workspace, true)
      if (health.blocked) throw new RpcError('conflict', blockedMessage(health))
      const expanded = await expandMessage(workspace, deps.userDir ?? userConfigDir(), text)
      return { turnId: await sessions.send(sessionId, expanded) }
    },
    'session.cancel': async ({ sessionId }) => ({ cancelled: sessions.cancel(sessionId) }),
    'session.setPlanning': async ({ sessionId, planning }) =>
      sessions.setPlanning(sessionId, planning).summary(),
    'session.setModel': async ({ sessionId, model }) => {
      const known = (await settings.get()).settings.providers.some((p) => p.id === model.providerId)
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
    'approval.respond': async ({ approvalId, decision, reason }) => ({
      ok: deps.approver?.respond(approvalId, { decision, reason }) ?? false
    }),
    'settings.get': async () => {
      const loaded = await settings.load()
      return { path: loaded.path, settings: loaded.raw, issues: loaded.issues }
    },
    'settings.save': async ({ settings: raw }) => settings.save(raw),
    'settings.status': async ({ workspace }) => {
      const folder = workspace ? await checkFolder(workspace) : null
      const health = await settingsHealth(settings, deps.projectSettings, folder, true)
      return {
        blocked: health.blocked,
        files: health.files.map((file) => ({ ...file, issues: file.issues.map(shownIssue) }))
      }
    },
    'provider.test': async ({ provider: raw }) => {
      const parsed = providerSettingsSchema.safeParse(raw)
      if (!parsed.success) {
        const first = parsed.error.issues[0]
        return { ok: false, error: `${first?.path.join('.') || 'provider'}: ${first?.message}` }
      }
      try {
        const provider = createProvider(parsed.data, deps.keys)
        const models = await provider.listModels(AbortSignal.timeout(PROVIDER_TEST_TIMEOUT_MS))
        return { ok: true, models }
      } catch (error) {
        return { ok: false, error: describeFailure(error) }
      }
    },
    'provider.models': async () => {
      const current = (await settings.get()).settings
      const fallback = current.default_model
      return {
        // The same inventory DiscoverModels gives the model: windows and image support, no keys.
        models: modelInventory(current),
        defaultModel: fallback ? { providerId: fallback.provider, model: fallback.model } : null
      }
    },
    'secrets.store': async ({ name, value }) => {
      if (!hooks.storeSecret) {
        throw new RpcError(
          'unsupported',
          'storing keys needs the desktop app; here, name an environment variable that holds the key'
        )
      }
      await hooks.storeSecret(name, value)
      return { stored: true }
    },
    'rules.list': async ({ workspace, sessionId }) =>
      deps.rules.view(await ruleTarget(workspace, sessionId)),
    'rules.add': async ({ workspace, sessionId, scope, rule }) =>
      deps.rules.add(scope, rule, await ruleTarget(workspace, sessionId)),
    'rules.remove': async ({ workspace, sessionId, scope, index }) =>
      deps.rules.remove(scope, index, await ruleTarget(workspace, sessionId)),
    'rules.trustProject': async ({ workspace, sessionId }) =>
      deps.rules.trustProject(await ruleTarget(workspace, sessionId)),
    'rules.preview': async ({ sessionId, rule }) =>
      previewRule(rule, sessionId ? sessions.get(sessionId).transcript() : []),
    'tools.list': async ({ workspace }) => ({
      tools: (workspace
        ? await deps.catalogFor(await checkFolder(workspace))
        : deps.catalog
      ).describe()
    }),
    ...mcpHandlers(deps.mcp, checkFolder),
    ...jobHandlers(deps.jobs, checkFolder),
    ...memoryHandlers(deps.memory, checkFolder),
    ...sessionHandlers({ sessions, store: deps.sessionStore, hub: deps.hub, checkFolder }),
    ...websearchHandlers(deps.keys),
    ...skillHandlers({
      userDir: deps.userDir ?? userConfigDir(),
      skillsEnabled: async () => deps.skillsEnabled ?? false,
      checkFolder
    }),
    'question.answer': async ({ questionId, answer }) => ({
      ok: deps.questions?.answer(questionId, answer) ?? false
    }),
    'spill.read': async ({ sessionId, path: requested }) => {
      const read = await sessions.get(sessionId).spill.read(requested)
      if (!read.ok) throw new RpcError('invalid_input', read.message)
      const { path: file, text, totalBytes, shownBytes } = read
      return { path: file, text, totalBytes, shownBytes }
    }
  }
}

/** An issue as the window shows it (its path segments stay in the main process). */
function shownIssue(issue: SettingsIssue): SettingsIssue {
  const { segments: _segments, ...shown } = issue
  void _segments
  return shown
}

/** A folder the person named: `~` expanded, made absolute, and proved to be a directory. */
async function checkFolder(requested: string): Promise<string> {
  const expanded = requested.startsWith('~')
    ? path.join(os.homedir(), requested.slice(1))
    : requested
  const absolute = path.resolve(expanded)
  const stats = await stat(absolute).catch(() => null)
  if (!stats) throw new RpcError('not_found', `${absolute} does not exist`)
  if (!stats.isDirectory()) throw new RpcError('invalid_input', `${absolute} is not a folder`)
  return realpath(absolute)
}
