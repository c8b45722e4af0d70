import { mecatlKeyNames } from '../../shared/command-env'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import type { McpLogLine, McpServerSettings, McpServerView, McpStatus } from '../../shared/mcp'
import type { Settings, SettingsIssue } from '../../shared/settings'
import type { Tool } from '../tools/tool'
import type { ProjectSettingsFiles } from '../settings/project-settings'
import type { LogEcho } from './debug-log'
import type { ElicitationBroker } from './elicitation/elicitation-broker'
import type { AskPerson } from './elicitation/server-elicitation'
import type { ReadResource } from './read-resource'
import type { SandboxBackend } from '../sandbox/sandboxed-server'
import { effectiveTimeZone } from './server-env'
import type { OAuthVault } from './oauth/oauth-vault'
import { defaultBackoff, type Backoff } from './backoff'
import type { ServerSupervisor } from './server-supervisor'
import { settingsPart } from './server-view'
import { TrustStore } from './trust-store'
import { WorkspaceServers, type WantedServer } from './workspace-servers'

export interface McpManagerOptions {
  dataDir: string
  /** The app's environment: the source of PATH, HOME… and of passthrough variables. */
  env: NodeJS.ProcessEnv
  /** Keys stored with `mecatl keys set` or in Settings: what `${secret:NAME}` reads. */
  readSecret?: (name: string) => string | undefined
  /** Where remote servers' OAuth sign-ins are kept (see oauth-vault.ts). */
  oauthVault?: OAuthVault
  /** The user's settings in force: a snapshot, read when servers are reconciled. */
  userSettings: () => Settings
  /** Names of the built-in tools, which a raw-named MCP tool may never take. */
  reservedNames: () => ReadonlySet<string>
  /** Trust every project-defined server for this run (`--trust-project`); nothing is stored. */
  trustProject?: boolean
  startupTimeoutMs?: number
  backoff?: Backoff
  sandbox?: SandboxBackend | null
  /**
   * false: unsandboxed servers run without a PID namespace of their own, ended by their marker
   * alone (tests of that way); by default they get one wherever it can be made.
   */
  pidNamespace?: boolean
  /** A workspace's servers changed state, tools or log (throttled). */
  onUpdate?: (status: McpStatus) => void
  /** The projects' own settings files (with their last valid copies, in the app). */
  projectSettings: ProjectSettingsFiles
  /** `MECATL_LOG=debug`: every server's log lines as they come (see debug-log.ts). */
  echo?: LogEcho
  /** Where servers' requests for input go to the person; none headless (they are refused). */
  elicitation?: ElicitationBroker | null
}

const DEFAULT_STARTUP_TIMEOUT_MS = 30_000
const UPDATE_THROTTLE_MS = 150

/**
 * The MCP servers of every open project: each folder gets its own set, started in that folder
 * from the user's servers plus the project's trusted ones, and kept in line with the settings.
 */
export class McpManager {
  private readonly workspaces = new Map<string, WorkspaceServers>()
  private readonly pendingUpdates = new Map<string, NodeJS.Timeout>()
  private readonly trust: TrustStore
  private readonly projects: ProjectSettingsFiles
  private disposed = false

  /** Servers' requests for input waiting for the person; null headless. */
  readonly elicitation: ElicitationBroker | null

  constructor(private readonly options: McpManagerOptions) {
    this.elicitation = options.elicitation ?? null
    this.trust = new TrustStore(path.join(options.dataDir, 'mcp-trust.json'))
    this.projects = options.projectSettings
  }

  /** The MCP tools of a project folder, once every server has started or failed. */
  async tools(workspace: string): Promise<Tool[]> {
    const servers = await this.sync(workspace)
    await servers.settled()
    return servers.tools()
  }

  /**
   * Why servers of a folder were not started because a raw-named tool took a registered name,
   * once every server has started or failed: one sentence each, none when all is well.
   */
  async collisions(workspace: string): Promise<string[]> {
    const servers = await this.sync(workspace)
    await servers.settled()
    return servers.collisions()
  }

  /** What the settings screen shows; without a folder, the user's servers, not started. */
  async status(workspace: string | null, settle = false): Promise<McpStatus> {
    if (!workspace) return this.configOnly()
    const servers = await this.sync(workspace)
    if (settle) await servers.settled()
    return servers.status()
  }

  async log(workspace: string | null, name: string): Promise<McpLogLine[]> {
    if (!workspace) return []
    const servers = await this.sync(workspace)
    return servers.get(name)?.log.list() ?? []
  }

  async restart(workspace: string, name: string): Promise<McpStatus> {
    const servers = await this.sync(workspace)
    const server = servers.get(name)
    if (!server) throw new Error(`there is no MCP server named "${name}" for this project`)
    if (server.state === 'disabled' || server.state === 'untrusted') {
      throw new Error(`the MCP server "${name}" is ${server.state}; enable or trust it first`)
    }
    await server.restart()
    return servers.status()
  }

  /**
   * Starts signing in to a remote server (OAuth): the page to open, or null when its stored
   * sign-in still works (it is then started again).
   */
  async signIn(workspace: string, name: string): Promise<string | null> {
    return (await this.server(workspace, name)).signIn()
  }

  /** Forgets a remote server's sign-in; it then waits for a new one. */
  async signOut(workspace: string, name: string): Promise<McpStatus> {
    const servers = await this.sync(workspace)
    await (await this.server(workspace, name)).signOut()
    return servers.status()
  }

  private async server(workspace: string, name: string): Promise<ServerSupervisor> {
    const server = (await this.sync(workspace)).get(name)
    if (!server) throw new Error(`there is no MCP server named "${name}" for this project`)
    if (server.state === 'disabled' || server.state === 'untrusted') {
      throw new Error(`the MCP server "${name}" is ${server.state}; enable or trust it first`)
    }
    return server
  }

  /** Approves (or withdraws approval of) project-defined servers, then applies it. */
  async setTrust(workspace: string, names: readonly string[], trust: boolean): Promise<McpStatus> {
    const key = canonical(workspace)
    const project = await this.projects.load(key)
    const chosen = project.settings.mcp.filter((server) => names.includes(server.name))
    const unknown = names.filter((name) => !chosen.some((server) => server.name === name))
    if (unknown.length > 0) {
      throw new Error(`this project's settings define no MCP server named ${unknown.join(', ')}`)
    }
    await this.trust.set(key, chosen, trust)
    return (await this.sync(key)).status()
  }

  async prompt(
    workspace: string,
    server: string,
    prompt: string,
    args: Record<string, string>
  ): Promise<string> {
    const servers = await this.sync(workspace)
    const supervisor = servers.get(server)
    if (!supervisor) throw new Error(`there is no MCP server named "${server}" for this project`)
    return supervisor.getPrompt(prompt, args)
  }

  /**
   * Reads a resource of a project's server for a message; throws the reason when the server is
   * not configured, switched off, not trusted or not ready, or the read failed.
   */
  async readResource(workspace: string, server: string, uri: string): Promise<ReadResource> {
    return (await this.server(workspace, server)).readResource(uri)
  }

  /** Applies changed settings to every project that has servers. */
  async reconcileAll(): Promise<void> {
    const results = await Promise.allSettled(
      [...this.workspaces.keys()].map((workspace) => this.sync(workspace))
    )
    for (const result of results) {
      if (result.status === 'rejected')
        console.error('MCP: applying settings failed:', result.reason)
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    for (const timer of this.pendingUpdates.values()) clearTimeout(timer)
    this.pendingUpdates.clear()
    const all = [...this.workspaces.values()]
    this.workspaces.clear()
    await Promise.all(all.map((servers) => servers.dispose()))
  }

  /** The folder's servers, brought in line with the settings files as they are now. */
  private async sync(workspace: string): Promise<WorkspaceServers> {
    const key = canonical(workspace)
    const settings = this.options.userSettings()
    let servers = this.workspaces.get(key)
    if (!servers) {
      servers = new WorkspaceServers(
        key,
        {
          cwd: key,
          appEnv: this.options.env,
          mecatlKeys: async () => mecatlKeyNames(this.options.userSettings()),
          secrets: { env: this.options.env, readSecret: this.options.readSecret },
          oauthVault: this.options.oauthVault,
          startupTimeoutMs: this.options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
          sandbox: this.options.sandbox ?? null,
          pidNamespace: this.options.pidNamespace,
          backoff: this.options.backoff ?? defaultBackoff,
          echo: this.options.echo,
          askPerson: this.askPerson(key)
        },
        this.options.reservedNames,
        () => this.announce(key)
      )
      if (this.disposed) return servers
      this.workspaces.set(key, servers)
    }
    const project = await this.projects.load(key)
    const issues: SettingsIssue[] = project.issues.map((issue) => ({
      path: `${project.path}: ${issue.path}`,
      message: issue.message
    }))
    // Found only for a folder with servers: the machine's zone costs Intl its first load.
    let zone: string | undefined
    const timeZone = (): string => (zone ??= effectiveTimeZone(settings.time_zone))
    const wanted: WantedServer[] = settings.mcp.map((server) => ({
      resolved: { settings: server, origin: 'user' },
      initial: server.enabled ? 'run' : 'disabled',
      timeZone: timeZone()
    }))
    for (const [i, server] of project.settings.mcp.entries()) {
      if (settings.mcp.some((mine) => mine.name === server.name)) {
        issues.push({
          path: `${project.path}: mcp.${i}.name`,
          message: `the project defines an MCP server "${server.name}", and so do your settings; yours is used. Rename one of them to have both.`
        })
        continue
      }
      const trusted = this.options.trustProject || (await this.trust.isTrusted(key, server))
      wanted.push({
        resolved: { settings: server, origin: 'project' },
        initial: !server.enabled ? 'disabled' : trusted ? 'run' : 'untrusted',
        timeZone: timeZone()
      })
    }
    servers.projectFile = project.exists ? project.path : null
    servers.issues = issues
    await servers.reconcile(wanted)
    return servers
  }

  /** Asks in the window of this project only; undefined headless, so the server is refused. */
  private askPerson(workspace: string): AskPerson | undefined {
    const broker = this.elicitation
    if (!broker) return undefined
    return (ask, signal) => broker.ask({ ...ask, workspace }, signal)
  }

  private async configOnly(): Promise<McpStatus> {
    const settings = this.options.userSettings()
    return {
      workspace: null,
      projectFile: null,
      servers: settings.mcp.map((server) => configView(server)),
      issues: []
    }
  }

  private announce(workspace: string): void {
    const onUpdate = this.options.onUpdate
    if (!onUpdate || this.pendingUpdates.has(workspace) || this.disposed) return
    const timer = setTimeout(() => {
      this.pendingUpdates.delete(workspace)
      const servers = this.workspaces.get(workspace)
      if (servers) onUpdate(servers.status())
    }, UPDATE_THROTTLE_MS)
    timer.unref()
    this.pendingUpdates.set(workspace, timer)
  }
}

/** A folder as one key, whichever way it was named. */
function canonical(workspace: string): string {
  const resolved = path.resolve(workspace)
  try {
    return realpathSync(resolved)
  } catch {
    return resolved
  }
}

function configView(server: McpServerSettings): McpServerView {
  return {
    ...settingsPart(server, 'user'),
    oauth: null,
    state: server.enabled ? 'idle' : 'disabled',
    error: null,
    pid: null,
    restarts: 0,
    tools: [],
    toolNames: {},
    offTools: [],
    resources: [],
    prompts: [],
    logCount: 0
  }
}
