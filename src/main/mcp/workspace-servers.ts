import type { McpServerView, McpStatus } from '../../shared/mcp'
import type { SettingsIssue } from '../../shared/settings'
import type { Tool } from '../tools/tool'
import type { ResolvedServer, SupervisorDeps } from './server-deps'
import type { ServerSupervisor } from './server-supervisor'

/** A server as settings want it, and whether it may run. */
export interface WantedServer {
  resolved: ResolvedServer
  initial: 'run' | 'disabled' | 'untrusted'
  /** Part of the definition: a changed time zone restarts the server with the new MECATL_TZ. */
  timeZone: string
}

type SharedDeps = Omit<SupervisorDeps, 'takenNames' | 'onChange' | 'timeZone'>

/** The MCP servers of one project folder, started in that folder. */
export class WorkspaceServers {
  private readonly servers = new Map<string, { key: string; supervisor: ServerSupervisor }>()
  projectFile: string | null = null
  issues: SettingsIssue[] = []
  // Reconciles run one after another, so two saves in a row cannot start a server twice.
  private queue: Promise<void> = Promise.resolve()

  constructor(
    readonly workspace: string,
    private readonly deps: SharedDeps,
    private readonly reserved: () => ReadonlySet<string>,
    private readonly onChange: () => void
  ) {}

  /** Starts new servers, stops removed ones, and restarts those whose definition changed. */
  reconcile(wanted: readonly WantedServer[]): Promise<void> {
    const run = this.queue.then(() => this.apply(wanted))
    this.queue = run.catch(() => undefined)
    return run
  }

  get(name: string): ServerSupervisor | undefined {
    return this.servers.get(name)?.supervisor
  }

  /** Waits until no server is in the middle of starting. */
  async settled(): Promise<void> {
    await this.queue
    await Promise.all([...this.servers.values()].map(({ supervisor }) => supervisor.settled()))
  }

  tools(): Tool[] {
    return [...this.servers.values()].flatMap(({ supervisor }) => supervisor.tools())
  }

  /** The sentences of servers failed because a raw-named tool took a registered name. */
  collisions(): string[] {
    return [...this.servers.values()].flatMap(({ supervisor }) =>
      supervisor.collision ? [supervisor.collision] : []
    )
  }

  views(): McpServerView[] {
    return [...this.servers.values()].map(({ supervisor }) => supervisor.view())
  }

  status(): McpStatus {
    return {
      workspace: this.workspace,
      projectFile: this.projectFile,
      servers: this.views(),
      issues: this.issues
    }
  }

  async dispose(): Promise<void> {
    await this.queue
    const all = [...this.servers.values()]
    this.servers.clear()
    await Promise.all(all.map(({ supervisor }) => supervisor.stop()))
  }

  private async apply(wanted: readonly WantedServer[]): Promise<void> {
    const next = new Map(wanted.map((w) => [w.resolved.settings.name, w]))
    const stopping: Promise<void>[] = []
    for (const [name, entry] of this.servers) {
      const want = next.get(name)
      if (!want || keyOf(want) !== entry.key) {
        this.servers.delete(name)
        stopping.push(entry.supervisor.stop())
      }
    }
    await Promise.all(stopping)
    if (wanted.length === 0) {
      // Every server was removed above.
      this.onChange()
      return
    }
    // The supervisor brings the MCP SDK with it: loaded once a folder has a server at all, so a
    // process whose settings name none never loads it (cli-startup.integration.test.ts).
    const { ServerSupervisor } = await import('./server-supervisor')
    const starting: Promise<void>[] = []
    const ordered = new Map<string, { key: string; supervisor: ServerSupervisor }>()
    for (const want of wanted) {
      const name = want.resolved.settings.name
      const existing = this.servers.get(name)
      if (existing) {
        ordered.set(name, existing)
        continue
      }
      const supervisor = new ServerSupervisor(
        want.resolved,
        {
          ...this.deps,
          timeZone: want.timeZone,
          takenNames: (self) => this.takenNames(self),
          onChange: this.onChange
        },
        want.initial === 'run' ? 'idle' : want.initial
      )
      ordered.set(name, { key: keyOf(want), supervisor })
      if (want.initial === 'run') starting.push(supervisor.start())
    }
    this.servers.clear()
    for (const [name, entry] of ordered) this.servers.set(name, entry)
    this.onChange()
    // Not awaited here: a slow server must not hold up the others' reconcile; settled() waits.
    void Promise.all(starting)
  }

  private takenNames(self: string): ReadonlyMap<string, string> {
    const taken = new Map<string, string>()
    for (const name of this.reserved()) taken.set(name, `the built-in tool ${name}`)
    for (const [name, { supervisor }] of this.servers) {
      if (name === self) continue
      for (const tool of supervisor.tools()) {
        if (!taken.has(tool.name)) taken.set(tool.name, `a tool of MCP server "${name}"`)
      }
    }
    return taken
  }
}

function keyOf(want: WantedServer): string {
  return JSON.stringify([want.resolved.origin, want.resolved.settings, want.initial, want.timeZone])
}
