import path from 'node:path'
import type { ApprovalMode, ModelRef } from '../shared/domain'
import type { Settings } from '../shared/settings'
import { SessionRecorder } from './agent/session-recorder'
import { SessionService } from './agent/session-service'
import type { CoreServices } from './agent/core-services'
import { TurnAssembler } from './agent/turn-assembly'
import { nobodyToAsk } from './gate/gate'
import { InteractiveApprover } from './gate/interactive-approver'
import { RuleBook } from './gate/rule-book'
import { JobManager, type JobManagerOptions } from './jobs/job-manager'
import { sweepOrphanedJobs } from './jobs/orphan-sweep'
import { McpManager, type McpManagerOptions } from './mcp/mcp-manager'
import { debugEcho } from './mcp/debug-log'
import { ElicitationBroker } from './mcp/elicitation/elicitation-broker'
import type { Provider } from './providers/provider'
import { ProviderLookup } from './providers/provider-lookup'
import { EventHub } from './events/event-hub'
import { createHandlers, type HostHooks } from './handlers'
import { oauthVault } from './mcp/oauth/oauth-vault'
import { withKeyFile } from './providers/key-file'
import { createRouter, type Router } from './rpc/router'
import { SettingsStore } from './settings/settings-store'
import { ProjectSettingsFiles } from './settings/project-settings'
import type { Catalog } from './tools/catalog'
import { SandboxService } from './sandbox/sandbox-service'
import { mecatlKeyNames } from '../shared/command-env'
import { Checkpoints } from './checkpoints/checkpoints'
import { recallSessionTool } from './tools/recall/recall-session'
import { SEARCH_TOOL_NAMES } from './tools/web'
import type { SearchSources } from './tools/web/search-sources'
import type { SearchBackend } from '../shared/websearch'
import type { GuardOptions } from './net/address-guard'
import { QuestionBroker } from './tools/ask-user/question-broker'
import { userConfigDir } from './skills/user-dir'
import type { Tool } from './tools/tool'
import { RecentFolders } from './workspace/recent-folders'
import { WorkspaceTrust } from './workspace/workspace-trust'
import { releaseTempJournal, sweepTempJournal, useTempJournal } from './workspace/temp-journal'
import type { DelegationDeps } from './agent/subagent/child-run'
import { delegationTools } from './agent/subagent/delegation-tools'
import { ParallelRuns } from './agent/subagent/parallel'
import { BackgroundChildren } from './agent/subagent/background-children'
import { updateCardDisplay } from './agent/card-update'
import { jobCheckpoints } from './agent/job-checkpoints'
import type { JobSummary } from '../shared/jobs'
import { openStore, type Store } from './store/store'
import { FileIndexes } from './workspace/file-indexes'
import { builtinTools } from './builtin-tools'

export interface CoreOptions {
  dataDir: string
  /** A settings file used instead of the user's (`--config`). */
  configPath?: string
  host: 'electron' | 'browser' | 'cli'
  /** Whether a person can answer approval requests (a window is attached). */
  interactive: boolean
  modeOverride?: ApprovalMode
  /** `--yes`: allow what the mode would ask about, never past a prompt rule or the interlock. */
  autoApprove?: boolean
  env?: NodeJS.ProcessEnv
  /** The folder this process was started for, if any. */
  workspace?: string | null
  hooks?: HostHooks
  /** Extra tools (tests register slow or failing ones here). */
  extraTools?: Tool[]
  providerFor?: (ref: ModelRef, settings: Settings) => Provider | null
  /** The model new sessions start with, instead of the settings' default. */
  defaultModel?: ModelRef
  /** `--trust-project`: run the project's own MCP servers without asking (nothing is stored). */
  trustProject?: boolean
  /** MCP supervision knobs (tests shorten the restart backoff). */
  mcp?: Pick<McpManagerOptions, 'startupTimeoutMs' | 'backoff' | 'sandbox' | 'pidNamespace'>
  /** false (`--no-shell`) leaves Shell and ShellStatus out, whatever the settings say. */
  shell?: boolean
  /** Where job temp directories go and how much output each job keeps (tests, benchmarks). */
  jobs?: Pick<JobManagerOptions, 'tempBase' | 'ringBytes'>
  /** false (`--no-user-model`) leaves the user-model memory tools out, whatever the settings say. */
  userModel?: boolean
  /** false (`--websearch=off`) leaves WebSearch and WebOpen out, whatever the settings say. */
  websearch?: boolean
  /** false (`--no-skills`) leaves Skill and SkillDraft out, whatever the settings say. */
  skills?: boolean
  /** The person's folder of AGENTS.md, skills/ and commands/ (default: MECATL_HOME or ~/.config/mecatl). */
  userDir?: string
  /** Testing seam: widens the web tools' address guard. Only testing and tests set it. */
  webGuard?: GuardOptions
  /** `--skills-dir`: folders of the operator's skills, which win every name clash. */
  skillsDirs?: readonly string[]
  /**
   * Slash-command files: `files: false` (`--no-commands`) leaves only the built-in commands and
   * the skills; `dirs` (`--commands-dir`) are folders of them that win every name clash.
   */
  commands?: { files: boolean; dirs: readonly string[] }
  /** The JSON search backend of `--websearch-url` and its flags: WebSearch tries it first. */
  searchBackend?: SearchBackend
  /** Testing seam: where the implicit Exa and Brave backends are (see search-sources.ts). */
  searchEndpoints?: SearchSources['endpoints']
}

/** Everything the main process owns, without Electron: the desktop, browser mode and CLI share it. */
export interface Core {
  router: Router
  hub: EventHub
  catalog: Catalog
  /** The built-in tools plus the MCP tools of one project folder (its servers start on first ask). */
  catalogFor(workspace: string): Promise<Catalog>
  mcp: McpManager
  /** Shell commands and background jobs, for every session. */
  jobs: JobManager
  sessions: SessionService
  /** Where Shell's commands (and sandboxed MCP servers) are confined. */
  sandbox: SandboxService
  /** The project folders' checkpoints. */
  checkpoints: Checkpoints
  /** Puts every turn together (sessions, child agents, `mecatl call`). */
  turns: TurnAssembler
  settings: SettingsStore
  /** Permission rules of every scope (session, project, user). */
  rules: RuleBook
  /** `<dataDir>/mecatl.db`: memory and sessions; closed by dispose. */
  store: Store
  dispose(): Promise<void>
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const env = options.env ?? process.env
  const hub = new EventHub()
  const settings = new SettingsStore(
    options.configPath ?? path.join(options.dataDir, 'settings.yaml')
  )
  // The window's banner follows both files; a broken one never means running on defaults.
  settings.onStatus(() => hub.emit('settings.status', { workspace: null }))
  const projectSettings = new ProjectSettingsFiles(
    path.join(options.dataDir, 'project-settings'),
    (workspace) => hub.emit('settings.status', { workspace })
  )
  await settings.load()
  // Before anything that starts timers or processes: a database that cannot be used stops the
  // core with one sentence, leaving nothing running behind it.
  const store = openStore(options.dataDir)
  const settingsNow = async (): Promise<Settings> => (await settings.get()).settings
  // Set once the sessions exist: a background job's end checkpoints its folder (agent/job-checkpoints).
  let jobEnded: (job: JobSummary) => void = () => undefined
  const jobs = new JobManager({
    env,
    // Commands get PATH, HOME, LANG… and what the person listed; never a key Mecatl itself uses.
    envPolicy: async () => {
      const current = await settingsNow()
      return { passthrough: current.shell.env_passthrough, never: mecatlKeyNames(current) }
    },
    // Read at each command and each reaper pass (the reaper replaces the sweep at start).
    temporaryStorage: () => settings.snapshot().temporary_storage,
    events: {
      updated: (job) => {
        hub.emit('job.updated', job)
        jobEnded(job)
      },
      output: (jobId, batch) => hub.emit('job.output', { jobId, ...batch }),
      dismissed: (jobId) => hub.emit('job.dismissed', { jobId })
    },
    ...options.jobs
  })
  // Temp files of atomic writes a killed run left in flight: only those its journal names go.
  const writeJournal = path.join(options.dataDir, 'pending-writes')
  const sweptWrites = sweepTempJournal(writeJournal).catch(() => [])
  useTempJournal(writeJournal)
  // Processes that jobs of a Mecatl killed outright left running: only ours, proved by the
  // job marker in their environment and by their owner being gone (see jobs/orphan-sweep.ts).
  const orphansSwept = sweepOrphanedJobs().catch(() => undefined)
  // Subscribed before any session exists, so every event of every session is recorded.
  const recorder = new SessionRecorder(store.sessions, hub)
  store.memory.onChange((owner, name) =>
    hub.emit('memory.changed', { scope: owner.scope, workspace: owner.project || null, name })
  )
  const hooks = withKeyFile(options.hooks ?? {}, options.dataDir)
  const keys = { env, readSecret: hooks.readSecret }
  const searchSources: SearchSources = {
    env,
    commandLine: options.searchBackend ?? null,
    endpoints: options.searchEndpoints
  }
  const userDir = options.userDir ?? userConfigDir(env)
  // With nobody to ask (headless), the model is not offered a question it cannot get answered.
  const questions = options.interactive ? new QuestionBroker(hub) : null
  const sandbox = new SandboxService({
    dataDir: options.dataDir,
    // A settings file kept outside the data directory is Mecatl's too: never a command's.
    ownFiles: options.configPath ? [options.configPath] : [],
    env,
    home: env.HOME
  })
  // The self-test runs before the first command needs it, and again for a changed backend.
  void sandbox.prepare(settings.snapshot())
  settings.onChange((next) => void sandbox.prepare(next))
  const tools = builtinTools({
    options,
    env,
    keys,
    searchSources,
    userDir,
    jobs,
    store,
    settings,
    questions,
    sandbox
  })
  const mcp = new McpManager({
    dataDir: options.dataDir,
    env,
    readSecret: hooks.readSecret,
    oauthVault: oauthVault(hooks, options.dataDir),
    userSettings: settingsNow,
    // WebSearch and WebOpen too while no backend offers them, so a server cannot take the names.
    reservedNames: () => new Set([...tools.reservedNames(), ...SEARCH_TOOL_NAMES]),
    trustProject: options.trustProject,
    echo: debugEcho(env, (text) => process.stderr.write(text)),
    onUpdate: (status) => hub.emit('mcp.updated', status),
    projectSettings,
    // Headless, a server's request for input is refused: nobody is there to answer it.
    elicitation: options.interactive ? new ElicitationBroker(hub) : null,
    // Servers with `sandbox: true` run under Shell's backend, with the settings of their start.
    sandbox: {
      wrap: async (server, cwd) => sandbox.confineServer(await settingsNow(), server, cwd)
    },
    ...options.mcp
  })
  tools.folderToolsBy((workspace) => mcp.tools(workspace))
  // Saved (or re-read) settings apply to running servers at once: no restart of the app.
  settings.onChange(() => void mcp.reconcileAll())
  const approver = options.interactive ? new InteractiveApprover(hub) : null
  const rules = new RuleBook(
    settings,
    path.join(options.dataDir, 'trusted-project-rules.json'),
    projectSettings
  )
  const checkpoints = new Checkpoints(options.dataDir, env, () => settings.snapshot().checkpoints)
  const services: CoreServices = {
    settings: settingsNow,
    rules,
    approver: approver ?? nobodyToAsk,
    keys,
    providers: new ProviderLookup(keys, options.providerFor),
    tools,
    store: store.sessions,
    spillRoot: path.join(options.dataDir, 'spill'),
    hub,
    userDir,
    trust: new WorkspaceTrust(options.dataDir, { trustAll: options.trustProject }),
    checkpoints,
    launch: {
      modeOverride: options.modeOverride,
      autoApprove: options.autoApprove,
      defaultModel: options.defaultModel
    }
  }
  const turns = new TurnAssembler(services)
  const sessions = new SessionService(turns)
  tools.add(recallSessionTool((id) => transcriptOrNull(() => sessions.get(id).transcript())))
  const delegation: DelegationDeps = {
    turns,
    session: (id) => sessions.get(id),
    taintChanged: (session) => hub.emit('session.updated', session.summary()),
    // A background sub-agent's progress goes on the card of the Subagent call that started it.
    background: new BackgroundChildren((sessionId, callId, display) =>
      updateCardDisplay(sessions.get(sessionId), hub, callId, display)
    )
  }
  jobEnded = jobCheckpoints({
    checkpoints,
    hub,
    session: (id) => {
      try {
        return sessions.get(id)
      } catch {
        return null
      }
    }
  })
  const parallelRuns = new ParallelRuns(
    (sessionId, callId, display) =>
      updateCardDisplay(sessions.get(sessionId), hub, callId, display),
    // A branch taken from the window changes the folder outside any call: checkpointed around.
    async (sessionId, reason) => {
      await checkpoints.tryTake(sessions.get(sessionId).workspace, reason, sessionId)
    }
  )
  // Profiles and teams are read from the settings of each turn, like every other switch.
  tools.fromSettingsBy((current, builtins) =>
    delegationTools(current, builtins, delegation, parallelRuns)
  )
  const catalogFor = (workspace: string): Promise<Catalog> => turns.toolsFor(workspace)
  const catalog = tools.live()
  const fileIndexes = new FileIndexes()
  const handlers = createHandlers({
    host: options.host,
    dataDir: options.dataDir,
    workspace: options.workspace ?? null,
    hooks,
    stopSessionWork: async (sessionId) => {
      await jobs.stopSession(sessionId)
      await delegation.background?.stopSession(sessionId, 'its session was deleted')
    },
    catalog,
    catalogFor,
    mcp,
    jobs,
    sessions,
    settings,
    projectSettings,
    approver,
    keys,
    searchSources,
    providers: services.providers,
    recent: new RecentFolders(path.join(options.dataDir, 'recent-folders.json')),
    trust: services.trust,
    rules,
    memory: store.memory,
    sessionStore: store.sessions,
    hub,
    questions,
    userDir,
    launchPlaces: { operatorDirs: options.skillsDirs, commands: options.commands },
    skillsEnabled: async () => tools.enabled('skills', await settingsNow()),
    parallel: parallelRuns,
    sandbox,
    checkpoints,
    fileIndexes
  })
  return {
    router: createRouter(handlers),
    hub,
    catalog,
    catalogFor,
    mcp,
    jobs,
    sessions,
    sandbox,
    checkpoints,
    turns,
    settings,
    rules,
    store,
    dispose: async () => {
      await sessions.dispose()
      fileIndexes.close()
      // Background sub-agents end with their sessions' run: none outlives the core.
      await delegation.background?.dispose()
      // Select-mode branches nobody took: their copies go with the process.
      await parallelRuns.dispose()
      // Jobs still running when their session ends are stopped with everything they started.
      await jobs.dispose()
      await orphansSwept
      await sweptWrites
      releaseTempJournal(writeJournal)
      await mcp.dispose()
      await sandbox.dispose()
      await checkpoints.settled()
      recorder.close()
      store.close()
    }
  }
}

/** A session's transcript, or null when the id names none (a CLI `call` has no session). */
function transcriptOrNull<T>(read: () => T): T | null {
  try {
    return read()
  } catch {
    return null
  }
}
