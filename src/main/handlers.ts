import type { Handlers } from '../shared/contract/handlers'
import { attachmentHandlers } from './agent/attachment-handlers'
import { sessionHandlers } from './agent/session-handlers'
import type { SessionService } from './agent/session-service'
import type { ParallelRuns } from './agent/subagent/parallel'
import { turnHandlers } from './agent/turn-handlers'
import type { EventHub } from './events/event-hub'
import { gateHandlers } from './gate/gate-handlers'
import type { InteractiveApprover } from './gate/interactive-approver'
import type { RuleBook } from './gate/rule-book'
import { jobHandlers } from './jobs/job-handlers'
import type { JobManager } from './jobs/job-manager'
import { mcpHandlers } from './mcp/mcp-handlers'
import type { McpManager } from './mcp/mcp-manager'
import type { KeySource } from './providers/create-provider'
import { providerHandlers } from './providers/provider-handlers'
import type { ProviderLookup } from './providers/provider-lookup'
import type { ProjectSettingsFiles } from './settings/project-settings'
import { settingsHandlers } from './settings/settings-handlers'
import { describeSandbox, type SandboxService } from './sandbox/sandbox-service'
import type { Checkpoints } from './checkpoints/checkpoints'
import { checkpointHandlers } from './checkpoints/checkpoint-handlers'
import type { SettingsStore } from './settings/settings-store'
import { skillHandlers, type LaunchPlaces } from './skills/skill-handlers'
import type { MemoryStore } from './store/memory-store'
import type { SessionStore } from './store/session-store'
import type { QuestionBroker } from './tools/ask-user/question-broker'
import type { Catalog } from './tools/catalog'
import { memoryHandlers } from './tools/memory/memory-handlers'
import { notifyHandlers } from './notifications/notify-handlers'
import { meterHandlers } from './agent/meter-handlers'
import { websearchHandlers } from './tools/web/web-handlers'
import type { SearchSources } from './tools/web/search-sources'
import { checkFolder } from './workspace/check-folder'
import { fileIndexHandlers } from './workspace/file-index-handlers'
import type { FileIndexes } from './workspace/file-indexes'
import type { RecentFolders } from './workspace/recent-folders'
import type { WorkspaceTrust } from './workspace/workspace-trust'
import { workspaceHandlers, type HostHooks } from './workspace/workspace-handlers'

export type { HostHooks }

export interface HandlerDeps {
  host: 'electron' | 'browser' | 'cli'
  dataDir: string
  workspace: string | null
  hooks: HostHooks
  /** Stops a session's background jobs and sub-agents (before it is deleted). */
  stopSessionWork?: (sessionId: string) => Promise<void>
  /** The built-in tools under the settings in force (a live view). */
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
  /** What WebSearch's chain takes besides the settings (the environment, --websearch-url). */
  searchSources: SearchSources
  /** Which providers a model reference can reach (the settings', or one given by flags). */
  providers: ProviderLookup
  recent: RecentFolders
  /** Whether the person trusts each folder's authors. */
  trust: WorkspaceTrust
  rules: RuleBook
  memory: MemoryStore
  /** Recorded sessions (rename, delete, search, fork, export); `hub` tells windows of changes. */
  sessionStore: SessionStore
  hub: EventHub
  /** AskUser's questions; null with nobody to ask. */
  questions: QuestionBroker | null
  /** The person's folder of instructions, skills and commands. */
  userDir: string
  /** What `--skills-dir`, `--commands-dir` and `--no-commands` add or take away. */
  launchPlaces: LaunchPlaces
  /** Whether the Skill tool is offered under the settings in force. */
  skillsEnabled: () => Promise<boolean>
  /** Select-mode Parallel runs waiting for a branch to be taken. */
  parallel: ParallelRuns | null
  sandbox: SandboxService
  checkpoints: Checkpoints
  /** The `@` finder's per-folder indexes. */
  fileIndexes: FileIndexes
}

/** Every call of the contract, answered by the feature it belongs to. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { sessions } = deps
  return {
    ...workspaceHandlers(deps),
    'sandbox.status': async () => {
      const status = await deps.sandbox.prepare((await deps.settings.get()).settings)
      return { state: status.state, text: describeSandbox(status) }
    },
    'sandbox.view': async ({ workspace }) =>
      deps.sandbox.view(
        (await deps.settings.get()).settings,
        workspace === undefined ? null : await checkFolder(workspace)
      ),
    ...turnHandlers(deps),
    ...attachmentHandlers(sessions),
    ...gateHandlers({ ...deps, session: (id) => sessions.get(id) }),
    ...settingsHandlers(deps.settings, deps.projectSettings),
    ...providerHandlers({ ...deps, storeSecret: deps.hooks.storeSecret }),
    ...mcpHandlers(deps.mcp, checkFolder),
    ...jobHandlers(deps.jobs, checkFolder),
    ...memoryHandlers(deps.memory, checkFolder),
    ...sessionHandlers({
      sessions,
      store: deps.sessionStore,
      hub: deps.hub,
      checkFolder,
      dropCheckpoints: (workspace, sessionId) =>
        deps.checkpoints.removeSession(workspace, sessionId),
      stopWork: deps.stopSessionWork
    }),
    ...checkpointHandlers({
      checkpoints: deps.checkpoints,
      session: (id) => sessions.get(id),
      jobs: deps.jobs,
      hub: deps.hub,
      checkFolder
    }),
    ...websearchHandlers(deps.keys, deps.searchSources),
    ...fileIndexHandlers(deps.fileIndexes, checkFolder),
    ...notifyHandlers(deps),
    ...meterHandlers(deps),
    ...skillHandlers({
      ...deps.launchPlaces,
      userDir: deps.userDir,
      skillsEnabled: deps.skillsEnabled,
      checkFolder
    })
  }
}
