import type { ApprovalMode, ModelRef } from '../shared/domain'
import type { Settings } from '../shared/settings'
import type { SearchBackend } from '../shared/websearch'
import { recorderFeature } from './agent/recorder-feature'
import type { SessionService } from './agent/session-service'
import { sessionsFeature } from './agent/sessions-feature'
import type { TurnAssembler } from './agent/turn-assembly'
import { createHandlers } from './api'
import { toolsFeature } from './tools/tools-feature'
import type { Checkpoints } from './checkpoints/checkpoints'
import { checkpointsFeature } from './checkpoints/checkpoints-feature'
import { EventHub } from './events/event-hub'
import { FeatureList } from './feature'
import { fileFinderFeature } from './file-finder/file-finder-feature'
import { gateFeature } from './gate/gate-feature'
import type { RuleBook } from './gate/rule-book'
import { ruleExampleIssues } from './gate/rule-examples'
import type { HostHooks } from './host-hooks'
import type { JobManager, JobManagerOptions } from './jobs/job-manager'
import { jobsFeature } from './jobs/jobs-feature'
import { mcpFeature } from './mcp/mcp-feature'
import type { McpManager, McpManagerOptions } from './mcp/mcp-manager'
import type { GuardOptions } from './net/address-guard'
import type { Provider } from './providers/provider'
import { providersFeature } from './providers/providers-feature'
import { createRouter, type Router } from './rpc/router'
import { sandboxFeature } from './sandbox/sandbox-feature'
import type { SandboxService } from './sandbox/sandbox-service'
import { settingsFeature } from './settings/settings-feature'
import type { SettingsFileRead } from './settings/settings-file'
import type { SettingsStore } from './settings/settings-store'
import { userConfigDir } from './skills/user-dir'
import type { Store } from './store/store'
import { storeFeature } from './store/store-feature'
import type { Catalog } from './tools/catalog'
import type { Tool } from './tools/tool'
import type { SearchSources } from './tools/web/search-sources'
import { workspaceFeature } from './workspace/workspace-feature'

export interface CoreOptions {
  dataDir: string
  /** A settings file used instead of the user's (`--config`). */
  configPath?: string
  /**
   * The user's settings file (or `--config`) as the host has just read and checked it: loaded
   * as it is instead of read again, so what was checked is what runs.
   */
  settingsRead?: SettingsFileRead<Settings>
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
  /**
   * Starts in the background what the core leaves off its start so a host is ready sooner: the
   * sandbox's self-test, so a window shows where Shell stands before any command has run. A host
   * calls it once it is up; nothing waits on it, and whatever needs its answer waits then.
   */
  warmUp(): void
  dispose(): Promise<void>
}

/**
 * The core's features in the order they start (and, reversed, stop): each adds its services to
 * the record the later ones are typed against, so one listed before what it needs does not
 * compile. The settings load while the store opens (neither needs the other), before anything
 * starts timers or processes; the recorder hears every session from the first; checkpoints
 * outlast the jobs that end last. Nothing slow is on this path: the sandbox's self-test and the
 * MCP servers start when first needed (see docs/architecture.md, Startup).
 */
function coreFeatures(options: CoreOptions) {
  const env = options.env ?? process.env
  return FeatureList.from({
    options,
    env,
    hub: new EventHub(),
    /** The person's folder of AGENTS.md, skills/ and commands/. */
    userDir: options.userDir ?? userConfigDir(env),
    checkRules: ruleExampleIssues
  })
    .together(settingsFeature, storeFeature)
    .then(recorderFeature)
    .then(workspaceFeature)
    .then(checkpointsFeature)
    .then(sandboxFeature)
    .then(providersFeature)
    .then(jobsFeature)
    .then(toolsFeature)
    .then(mcpFeature)
    .then(gateFeature)
    .then(sessionsFeature)
    .then(fileFinderFeature)
}

/** The services record: what the core was given, and what each of its features added. */
export type Services = ReturnType<typeof coreFeatures> extends FeatureList<infer S> ? S : never

export async function createCore(options: CoreOptions): Promise<Core> {
  const { services, stop } = await coreFeatures(options).start()
  return {
    router: createRouter(createHandlers(services)),
    hub: services.hub,
    catalog: services.catalog,
    catalogFor: services.catalogFor,
    mcp: services.mcp,
    jobs: services.jobs,
    sessions: services.sessions,
    sandbox: services.sandbox,
    checkpoints: services.checkpoints,
    turns: services.turns,
    settings: services.settings,
    rules: services.rules,
    store: services.store,
    warmUp: () =>
      void services.sandbox.prepare(services.settings.snapshot()).catch(() => undefined),
    dispose: stop
  }
}
