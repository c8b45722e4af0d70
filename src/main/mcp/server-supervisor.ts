import type { McpServerState, McpServerView } from '../../shared/mcp'
import { errorOutput, type Tool, type ToolOutput } from '../tools/tool'
import type { ResolvedServer, SupervisorDeps } from './server-deps'
import { answerElicitation } from './elicitation/server-elicitation'
import { LogRing } from './log-ring'
import { McpConnection, type ConnectionTarget } from './mcp-connection'
import { toToolOutput, type McpCallTarget, type McpProgress } from './mcp-tool'
import { RemoteAuth } from './oauth/remote-auth'
import type { ReadResource } from './read-resource'
import { serverTarget } from './server-target'
import { catalogTools, describeCallError, offTools } from './server-tools'
import { settingsPart, toolView } from './server-view'
import { startSignIn } from './oauth/sign-in-flow'

export { defaultBackoff, type Backoff } from './backoff'

/**
 * Keeps one MCP server running: starts it, reports why it could not, restarts it with backoff
 * when it dies, and turns its tools into catalog tools. A failure is this server's alone.
 */
export class ServerSupervisor implements McpCallTarget {
  state: McpServerState
  error: string | null = null
  /**
   * Set when the server was failed because a raw-named tool (`prefix_tools: false`) took a name
   * already registered: the whole sentence, which the CLI stops on (see cli/mcp-collisions.ts).
   */
  collision: string | null = null
  restarts = 0
  readonly log: LogRing
  private connection: McpConnection | null = null
  private toolList: Tool[] = []
  /** Each registered tool's name at the server (see McpServerView.toolNames). */
  private ownNames = new Map<string, string>()
  // Bumped by every start and stop, so the result of an outdated attempt is dropped.
  private generation = 0
  private starting: Promise<void> | null = null
  private retryTimer: NodeJS.Timeout | null = null
  /** What a server that died left is being ended: its restart starts once that is done. */
  private leftovers: Promise<void> = Promise.resolve()
  private attempts = 0
  private readyAt = 0
  /** A remote server's OAuth side; null for one that does not sign in (see RemoteAuth). */
  private readonly remoteAuth: RemoteAuth | null
  /** Why its OAuth side could not be set up (a client secret whose reference is missing). */
  private readonly authProblem: string | null = null

  constructor(
    readonly config: ResolvedServer,
    private readonly deps: SupervisorDeps,
    initial: 'disabled' | 'untrusted' | 'idle'
  ) {
    this.state = initial
    let remoteAuth: RemoteAuth | null = null
    try {
      remoteAuth = RemoteAuth.of(config.settings, deps.oauthVault, deps.secrets)
    } catch (error) {
      this.authProblem = error instanceof Error ? error.message : String(error)
    }
    this.remoteAuth = remoteAuth
    this.log = new LogRing(
      500,
      deps.onChange,
      deps.echo ? { server: config.settings.name, to: deps.echo } : undefined
    )
  }

  get name(): string {
    return this.config.settings.name
  }

  /** Registered tools while the server is ready; none otherwise. */
  tools(): Tool[] {
    return this.state === 'ready' ? this.toolList : []
  }

  /** Resolves once the current start attempt (if any) has succeeded or failed. */
  async settled(): Promise<void> {
    await this.starting
  }

  start(): Promise<void> {
    this.clearRetry()
    const generation = ++this.generation
    this.collision = null
    this.setState('starting', null)
    this.starting = this.attempt(generation, false)
    return this.starting
  }

  /** A restart a person asked for: the backoff starts afresh. */
  async restart(): Promise<void> {
    this.attempts = 0
    await this.shutdown()
    await this.start()
  }

  async stop(state: 'disabled' | 'untrusted' | 'idle' = 'idle'): Promise<void> {
    await this.shutdown()
    this.setState(state, null)
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    external: boolean,
    onProgress?: (progress: McpProgress) => void
  ): Promise<ToolOutput> {
    if (this.state === 'needs-sign-in') {
      return errorOutput(
        `MCP call failed: ${this.error ?? 'the server needs you to sign in'}. Go on without it, or ask the person to sign in.`
      )
    }
    await this.remoteAuth?.refreshIfDue()
    const connection = this.connection
    if (!connection || this.state !== 'ready') {
      const why = this.error ? `: ${this.error}` : ''
      return errorOutput(
        `MCP call failed: the server "${this.name}" is ${this.state}${why}. Try again once it is ready.`
      )
    }
    try {
      return toToolOutput(await connection.callTool(tool, args, signal, onProgress), external)
    } catch (error) {
      if (signal.aborted) return errorOutput('MCP call failed: the call was stopped.')
      const signIn = await this.remoteAuth?.signInNeeded(error)
      if (signIn) {
        // The login was revoked or ran out and could not be refreshed: the session goes on.
        await this.shutdown()
        this.log.event(signIn)
        this.setState('needs-sign-in', signIn)
        return errorOutput(
          `MCP call failed: ${signIn}. Go on without it, or ask the person to sign in.`
        )
      }
      return errorOutput(`MCP call failed: ${describeCallError(this.name, error)}`)
    }
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    if (!this.connection || this.state !== 'ready') {
      throw new Error(`the MCP server "${this.name}" is ${this.state}; wait until it is ready`)
    }
    return this.connection.getPromptText(name, args)
  }

  /**
   * Reads one of the server's resources for a message, with the listing's entry for it when the
   * server lists it (a templated URI is not listed). Throws the reason; the log says either way.
   */
  async readResource(uri: string): Promise<ReadResource> {
    if (this.state !== 'ready') {
      const why = this.error ? ` (${this.error})` : ''
      throw new Error(`the server is ${this.state}${why}; try again once it is ready`)
    }
    await this.remoteAuth?.refreshIfDue()
    const connection = this.connection
    if (!connection) throw new Error(`the server is ${this.state}; try again once it is ready`)
    try {
      const contents = await connection.readResource(uri)
      this.log.event(`read resource ${uri} for a message`)
      return { listed: connection.resources.find((r) => r.uri === uri) ?? null, contents }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.log.event(`reading resource ${uri} failed: ${message}`)
      throw error
    }
  }

  view(): McpServerView {
    const part = settingsPart(this.config.settings, this.config.origin)
    return {
      ...part,
      transport: this.connection?.kind ?? part.transport,
      oauth: this.remoteAuth?.view() ?? null,
      state: this.state,
      error: this.error,
      pid: this.state === 'ready' ? (this.connection?.pid ?? null) : null,
      restarts: this.restarts,
      toolNames: Object.fromEntries(
        this.tools().map((tool) => [tool.name, this.ownNames.get(tool.name) ?? tool.name])
      ),
      offTools:
        this.state === 'ready' ? offTools(this.connection?.tools ?? [], this.config.settings) : [],
      tools: this.tools().map(toolView),
      resources: this.state === 'ready' ? (this.connection?.resources ?? []) : [],
      prompts: this.state === 'ready' ? (this.connection?.prompts ?? []) : [],
      logCount: this.log.count
    }
  }

  /** One start; `recovering` when it restarts a server that died, so a failure retries. */
  private async attempt(generation: number, recovering: boolean): Promise<void> {
    await this.leftovers
    let target: ConnectionTarget
    try {
      if (this.authProblem) throw new Error(this.authProblem)
      const missing = this.remoteAuth?.missingSignIn()
      // Never in the way: a server nobody signed in to is not contacted, and waits for sign-in.
      if (missing) return this.waitForSignIn(generation, missing)
      await this.remoteAuth?.refreshIfDue()
      target = await serverTarget(this.config.settings, this.deps, this.remoteAuth)
    } catch (error) {
      // Never started unconfined, or with a hole in its headers, instead: the reason is the
      // server's error until it is fixed.
      return this.failed(generation, error instanceof Error ? error.message : String(error), false)
    }
    this.log.event(
      target.kind === 'stdio'
        ? `starting: ${[target.command, ...target.args].join(' ')}`
        : `connecting to ${target.url.href}`
    )
    if (target.kind === 'stdio' && target.note) this.log.event(target.note)
    let connection: McpConnection
    try {
      connection = await McpConnection.open({
        target,
        log: this.log,
        startupTimeoutMs: this.deps.startupTimeoutMs,
        root: this.deps.cwd,
        onLost: () => this.lost(generation),
        onListsChanged: () => {
          if (generation !== this.generation) return
          this.adopt(connection, generation)
        },
        elicit: (params, signal) =>
          answerElicitation(params, signal, {
            name: this.name,
            log: this.log,
            ask: this.deps.askPerson
          })
      })
    } catch (error) {
      const signIn = await this.remoteAuth?.signInNeeded((error as Error).cause ?? error)
      if (signIn) return this.waitForSignIn(generation, signIn)
      const message = error instanceof Error ? error.message : String(error)
      return this.failed(generation, message, recovering)
    }
    if (generation !== this.generation) {
      await connection.close()
      return
    }
    this.connection = connection
    this.readyAt = Date.now()
    this.adopt(connection, generation)
  }

  /** Builds the catalog tools from the server's list; a raw name clash fails the server. */
  private adopt(connection: McpConnection, generation: number): void {
    const s = this.config.settings
    const built = catalogTools(this, connection.tools, s, this.deps.takenNames(s.name))
    for (const skipped of built.skipped) this.log.event(`skipped a second tool named ${skipped}`)
    if (built.clash) {
      const { clash, fix } = built.clash
      void connection.close()
      this.failed(generation, `${clash}; ${fix}`, false)
      this.collision = `MCP server "${s.name}" has prefix_tools: false, and ${clash}, so it was not started. To use it, ${fix}, or remove it from the settings.`
      return
    }
    this.toolList = built.tools
    this.ownNames = built.ownNames
    this.collision = null
    this.setState('ready', null)
  }

  /**
   * Starts the person's sign-in (OAuth): resolves with the page to open, or null when the stored
   * sign-in still works. The server starts the moment the browser comes back signed in.
   */
  async signIn(): Promise<string | null> {
    const auth = this.remoteAuth
    if (!auth) {
      throw new Error(
        this.authProblem ?? `the MCP server "${this.name}" does not sign in with OAuth`
      )
    }
    return startSignIn(auth, {
      settings: this.config.settings,
      secrets: this.deps.secrets,
      connected: this.connection?.kind ?? null,
      log: this.log,
      onChange: this.deps.onChange,
      restart: () => this.restart()
    })
  }

  /** Forgets the sign-in (its tokens and registration) and waits for a new one. */
  async signOut(): Promise<void> {
    if (!this.remoteAuth) throw new Error(`the MCP server "${this.name}" has no sign-in`)
    await this.remoteAuth.signOut()
    this.log.event('signed out')
    await this.restart()
  }

  private waitForSignIn(generation: number, why: string): void {
    if (generation !== this.generation) return
    this.connection = null
    this.toolList = []
    this.log.event(why)
    this.setState('needs-sign-in', why)
  }

  private failed(generation: number, message: string, retry: boolean): void {
    if (generation !== this.generation) return
    this.collision = null
    this.connection = null
    this.toolList = []
    this.log.event(`failed: ${message}`)
    if (retry && this.attempts < this.deps.backoff.maxAttempts) {
      this.scheduleRestart(generation, message)
      return
    }
    const gaveUp = retry ? ` (gave up after ${this.attempts} restarts)` : ''
    this.setState('failed', `${message}${gaveUp}`)
  }

  /** The process died while it was up: restart it, waiting longer each time it keeps dying. */
  private lost(generation: number): void {
    if (generation !== this.generation) return
    this.leftovers = this.connection?.ended() ?? Promise.resolve()
    this.connection = null
    this.toolList = []
    if (Date.now() - this.readyAt > this.deps.backoff.stableMs) this.attempts = 0
    this.scheduleRestart(generation, 'the server process exited')
  }

  private scheduleRestart(generation: number, why: string): void {
    const { initialMs, maxMs } = this.deps.backoff
    const delay = Math.min(initialMs * 2 ** this.attempts, maxMs)
    this.attempts++
    this.restarts++
    this.log.event(`restarting in ${delay} ms (attempt ${this.attempts})`)
    this.setState('restarting', why)
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      if (generation !== this.generation) return
      const next = ++this.generation
      this.setState('restarting', why)
      this.starting = this.attempt(next, true)
    }, delay)
    // A pending restart must not keep a finished CLI command alive.
    this.retryTimer.unref()
  }

  private async shutdown(): Promise<void> {
    this.generation++
    this.remoteAuth?.cancelSignIn()
    this.clearRetry()
    const connection = this.connection
    this.connection = null
    this.toolList = []
    if (connection) {
      this.log.event('stopping')
      await connection.close()
    }
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
  }

  private setState(state: McpServerState, error: string | null): void {
    this.state = state
    this.error = error
    this.deps.onChange()
  }
}
