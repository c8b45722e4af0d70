import path from 'node:path'
import type { ApprovalMode, ModelRef } from '../shared/domain'
import type { Settings } from '../shared/settings'
import { SessionRecorder } from './agent/session-recorder'
import { SessionService } from './agent/session-service'
import { nobodyToAsk } from './gate/gate'
import { InteractiveApprover } from './gate/interactive-approver'
import { RuleBook } from './gate/rule-book'
import { JobManager, type JobManagerOptions } from './jobs/job-manager'
import { cleanAbandonedJobDirs } from './jobs/temp-dirs'
import { sweepOrphanedJobs } from './jobs/orphan-sweep'
import { McpManager, type McpManagerOptions } from './mcp/mcp-manager'
import type { Provider } from './providers/provider'
import { EventHub } from './rpc/event-hub'
import { createHandlers, type HostHooks } from './rpc/handlers'
import { createRouter, type Router } from './rpc/router'
import { SettingsStore } from './settings/settings-store'
import { ProjectSettingsFiles } from './settings/project-settings'
import { Catalog } from './tools/catalog'
import { fsTools } from './tools/fs'
import { memoryTools } from './tools/memory/memory-tools'
import { shellTools } from './tools/shell'
import { recallSessionTool } from './tools/recall/recall-session'
import { todoTool } from './tools/todo/todo'
import { compactTool } from './tools/compact/compact-tool'
import { discoverModelsTool } from './tools/discovery/discover-models'
import { webTools } from './tools/web'
import { testLoopbackHatch } from './tools/web/test-hatch'
import { askUserTool } from './tools/ask-user/ask-user'
import { QuestionBroker } from './tools/ask-user/question-broker'
import { skillTool } from './tools/skill/skill-tool'
import { userConfigDir } from './skills/user-dir'
import type { Tool } from './tools/tool'
import { RecentFolders } from './workspace/recent-folders'
import { releaseTempJournal, sweepTempJournal, useTempJournal } from './workspace/temp-journal'
import type { DelegationDeps } from './agent/subagent/child-run'
import { delegationTools } from './agent/subagent/delegation-tools'
import { ParallelRuns } from './agent/subagent/parallel'
import { updateCardDisplay } from './agent/subagent/card-update'
import { openStore, type Store } from './store/store'

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
  mcp?: Pick<McpManagerOptions, 'startupTimeoutMs' | 'backoff' | 'sandbox'>
  /** false (`--no-shell`) leaves Shell and ShellStatus out, whatever the settings say. */
  shell?: boolean
  /** Where job temp directories go and how much output each job keeps (tests, benchmarks). */
  jobs?: Pick<JobManagerOptions, 'tempBase' | 'ringBytes'>
  /** false (`--no-user-model`) leaves the user-model memory tools out, whatever the settings say. */
  userModel?: boolean
  /** false (`--websearch=off`) leaves WebSearch and WebOpen out, whatever the settings say. */
  websearch?: boolean
  /** false (`--no-skills`) leaves the Skill tool out, whatever the settings say. */
  skills?: boolean
  /** The person's folder of AGENTS.md, skills/ and commands/ (default: MECATL_HOME or ~/.config/mecatl). */
  userDir?: string
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
  const catalog = new Catalog([...fsTools(), todoTool, compactTool, ...(options.extraTools ?? [])])
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
  catalog.register(discoverModelsTool(async () => (await settings.get()).settings))
  const jobs = new JobManager({
    env,
    // The provider keys Mecatl itself uses are not handed to the commands the model runs.
    hiddenEnv: async () =>
      (await settings.get()).settings.providers.flatMap((p) => p.api_key_env ?? []),
    events: {
      updated: (job) => hub.emit('job.updated', job),
      output: (jobId, batch) => hub.emit('job.output', { jobId, ...batch }),
      dismissed: (jobId) => hub.emit('job.dismissed', { jobId })
    },
    ...options.jobs
  })
  // Temp directories of jobs from a run that crashed: only ours, proved by a marker, go.
  const swept = cleanAbandonedJobDirs(options.jobs?.tempBase).catch(() => [])
  // Temp files of atomic writes a killed run left in flight: only those its journal names go.
  const writeJournal = path.join(options.dataDir, 'pending-writes')
  const sweptWrites = sweepTempJournal(writeJournal).catch(() => [])
  useTempJournal(writeJournal)
  // Processes that jobs of a Mecatl killed outright left running: only ours, proved by the
  // job marker in their environment and by their owner being gone (see jobs/orphan-sweep.ts).
  const orphansSwept = sweepOrphanedJobs().catch(() => undefined)
  const store = openStore(options.dataDir)
  // Subscribed before any session exists, so every event of every session is recorded.
  const recorder = new SessionRecorder(store.sessions, hub)
  store.memory.onChange((owner, name) =>
    hub.emit('memory.changed', { scope: owner.scope, workspace: owner.project || null, name })
  )
  const userModel =
    options.userModel !== false && (await settings.get()).settings.user_model.enabled
  for (const tool of memoryTools(store.memory, { userModel })) catalog.register(tool)
  if (options.shell !== false && (await settings.get()).settings.shell.enabled) {
    for (const tool of shellTools(jobs)) catalog.register(tool)
  }
  let websearch = (await settings.get()).settings.websearch
  settings.onChange((next) => (websearch = next.websearch))
  const web = webTools({
    search: options.websearch !== false && websearch.enabled,
    settings: () => websearch,
    keys: { env, readSecret: options.hooks?.readSecret },
    guard: { allowLoopback: testLoopbackHatch(env) }
  })
  for (const tool of web) catalog.register(tool)
  const userDir = options.userDir ?? userConfigDir(env)
  const skillsEnabled = options.skills !== false && (await settings.get()).settings.skills.enabled
  if (skillsEnabled) catalog.register(skillTool({ userDir }))
  // With nobody to ask (headless), the model is not offered a question it cannot get answered.
  const questions = options.interactive ? new QuestionBroker(hub) : null
  if (questions) catalog.register(askUserTool(questions))
  const mcp = new McpManager({
    dataDir: options.dataDir,
    env,
    userSettings: async () => (await settings.get()).settings,
    reservedNames: () => new Set(catalog.list().map((tool) => tool.name)),
    trustProject: options.trustProject,
    onUpdate: (status) => hub.emit('mcp.updated', status),
    projectSettings,
    ...options.mcp
  })
  // Saved (or re-read) settings apply to running servers at once: no restart of the app.
  settings.onChange(() => void mcp.reconcileAll())
  const catalogFor = async (workspace: string): Promise<Catalog> => {
    const tools = await mcp.tools(workspace).catch(() => [])
    const full = new Catalog(catalog.list())
    // Servers never shadow a tool (see the MCP supervisor); this only guards a late clash.
    for (const tool of tools) if (!full.get(tool.name)) full.register(tool)
    return full
  }
  const approver = options.interactive ? new InteractiveApprover(hub) : null
  const keys = { env, readSecret: options.hooks?.readSecret }
  const rules = new RuleBook(
    settings,
    path.join(options.dataDir, 'trusted-project-rules.json'),
    projectSettings
  )
  const sessions = new SessionService({
    hub,
    rules,
    catalog,
    catalogFor,
    approver: approver ?? nobodyToAsk,
    keys,
    settings: async () => (await settings.get()).settings,
    spillRoot: path.join(options.dataDir, 'spill'),
    modeOverride: options.modeOverride,
    autoApprove: options.autoApprove,
    defaultModel: options.defaultModel,
    providerFor: options.providerFor,
    userDir,
    store: store.sessions
  })
  catalog.register(recallSessionTool((id) => transcriptOrNull(() => sessions.get(id).transcript())))
  const delegation: DelegationDeps = {
    session: (id) => sessions.get(id),
    catalogFor,
    settings: async () => (await settings.get()).settings,
    rules,
    approver: approver ?? nobodyToAsk,
    keys,
    providerFor: options.providerFor,
    modeOverride: options.modeOverride,
    autoApprove: options.autoApprove,
    spillRoot: path.join(options.dataDir, 'spill'),
    userDir,
    taintChanged: (session) => hub.emit('session.updated', session.summary())
  }
  const settingsNow = (await settings.get()).settings
  const parallelRuns = new ParallelRuns((sessionId, callId, display) =>
    updateCardDisplay(sessions.get(sessionId), hub, callId, display)
  )
  for (const tool of delegationTools(settingsNow, catalog, delegation, parallelRuns)) {
    catalog.register(tool)
  }
  const handlers = createHandlers({
    host: options.host,
    dataDir: options.dataDir,
    workspace: options.workspace ?? null,
    hooks: options.hooks ?? {},
    catalog,
    catalogFor,
    mcp,
    jobs,
    sessions,
    settings,
    projectSettings,
    approver,
    keys,
    recent: new RecentFolders(path.join(options.dataDir, 'recent-folders.json')),
    rules,
    memory: store.memory,
    sessionStore: store.sessions,
    hub,
    questions,
    userDir,
    skillsEnabled,
    parallel: parallelRuns
  })
  return {
    router: createRouter(handlers),
    hub,
    catalog,
    catalogFor,
    mcp,
    jobs,
    sessions,
    settings,
    rules,
    store,
    dispose: async () => {
      await sessions.dispose()
      // Select-mode branches nobody took: their copies go with the process.
      await parallelRuns.dispose()
      // Jobs still running when their session ends are stopped with everything they started.
      await jobs.dispose()
      await swept
      await orphansSwept
      await sweptWrites
      releaseTempJournal(writeJournal)
      await mcp.dispose()
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
