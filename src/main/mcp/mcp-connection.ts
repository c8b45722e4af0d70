import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  type GetPromptResult,
  type ReadResourceResult,
  type Progress,
  type Tool as SdkTool
} from '@modelcontextprotocol/sdk/types.js'
import type { McpPrompt, McpResource } from '../../shared/mcp'
import { version } from '../version'
import { handleElicitation } from './elicitation/elicit-handler'
import type { LogRing } from './log-ring'
import type { McpProgress } from './mcp-tool'
import { remoteStartFailure } from './remote-failure'
import { RemoteLiveness } from './remote-liveness'
import { isOldServer, remoteTransport, type RemoteTarget } from './remote-transport'
import { ServerTree } from './server-tree'
import { stdioStartFailure, stdioTransport } from './stdio-transport'

/** Every request to a server gives up after this long. */
export const REQUEST_TIMEOUT_MS = 120_000

/** A program this machine runs, spoken to over its stdin and stdout. */
export interface LocalTarget {
  command: string
  args: readonly string[]
  /** The child's whole environment (see server-env.ts), its marker with `token` included. */
  env: Record<string, string>
  cwd: string
  /** The command as the settings name it, for messages: `command` may be its wrapper. */
  label: string
  /** The marker token every process of the server carries (see server-tree.ts). */
  token: string
  /** `command` is a wrapper that runs the server in a PID namespace of its own. */
  namespaced: boolean
  /** Said in the server's log at start: how its processes are ended, when not the usual way. */
  note: string | null
}

/** How the client reaches its server: a child process, or an address. */
export type ConnectionTarget =
  ({ kind: 'stdio' } & LocalTarget) | ({ kind: 'remote' } & RemoteTarget)

/** The transport a connection speaks. */
export type TransportKind = 'stdio' | 'http' | 'sse'

export interface ConnectionOptions {
  target: ConnectionTarget
  log: LogRing
  /** How long the handshake and first listings may take before the server counts as failed. */
  startupTimeoutMs: number
  /** The project folder, offered to the server as its root (MCP roots). */
  root: string
  /** The process went away without close() being called. */
  onLost: () => void
  /** The server said its tools, resources or prompts changed; they are listed again first. */
  onListsChanged: () => void
  /**
   * The server asks the person for input (elicitation, form mode); `signal` aborts when the
   * server cancels or the connection goes. Throws an McpError the server receives as the answer.
   */
  elicit: (params: ElicitRequestFormParams, signal: AbortSignal) => Promise<ElicitResult>
}

/** One running server process and the MCP client talking to it. */
export class McpConnection {
  tools: SdkTool[] = []
  resources: McpResource[] = []
  prompts: McpPrompt[] = []
  private closing = false
  private opened = false
  /** A remote server's watch while calls run (see remote-liveness.ts); none for a process. */
  private liveness: RemoteLiveness | null = null
  /** Every process of a local server (see server-tree.ts); none for a remote one. */
  private readonly tree: ServerTree | null
  /** Ends the watch on a local server's own process. */
  private readonly unwatch = new AbortController()

  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    /** The transport spoken: a remote server's is known once one has started. */
    readonly kind: TransportKind,
    private readonly options: ConnectionOptions
  ) {
    const target = options.target
    this.tree = target.kind === 'stdio' ? new ServerTree(target.token, target.namespaced) : null
  }

  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null
  }

  /**
   * Starts the process or reaches the address, shakes hands and lists what it offers; throws a
   * sentence on failure. A remote server with no transport set is tried over streamable HTTP
   * first, then over the legacy SSE transport when it answers as an old server does.
   */
  static async open(options: ConnectionOptions): Promise<McpConnection> {
    const target = options.target
    if (target.kind === 'stdio')
      return McpConnection.start(options, stdioTransport(target, options.log), 'stdio')
    const kinds = target.transport ? [target.transport] : (['http', 'sse'] as const)
    for (const [index, kind] of kinds.entries()) {
      try {
        return await McpConnection.start(options, remoteTransport(target, kind), kind)
      } catch (error) {
        const failure = error as Error
        const fallback = index < kinds.length - 1 && isOldServer(failure.cause)
        if (!fallback) throw failure
        options.log.event(`${failure.message}: an old server, so trying the legacy SSE transport`)
      }
    }
    throw new Error('unreachable: every transport was tried')
  }

  private static async start(
    options: ConnectionOptions,
    transport: Transport,
    kind: TransportKind
  ): Promise<McpConnection> {
    // The project folder is the one root a server is offered; it never changes while connected.
    // Elicitation is declared for forms alone, the same with or without a window (headless, the
    // answer is a refusal): the SDK refuses URL mode before our handler sees it.
    const client = new Client(
      { name: 'mecatl', version },
      { capabilities: { roots: { listChanged: false }, elicitation: { form: {} } } }
    )
    const root = { uri: pathToFileURL(options.root).href, name: path.basename(options.root) }
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [root] }))
    handleElicitation(client, options.elicit)
    const connection = new McpConnection(client, transport, kind, options)
    let exited = false
    client.onclose = () => {
      exited = true
      connection.unwatch.abort()
      if (connection.closing) return
      options.log.event(kind === 'stdio' ? 'the server process exited' : 'the connection closed')
      // Only a server that was up is "lost"; one dying during startup fails open() instead.
      // What it started is ended at once; a restart waits for that (see `ended`).
      if (!connection.opened) return
      void connection.tree?.end()
      options.onLost()
    }
    client.onerror = (error) => {
      options.log.event(`transport error: ${error.message}`)
      connection.liveness?.poke()
    }
    if (kind !== 'stdio') {
      connection.liveness = new RemoteLiveness(
        (timeout) => client.ping({ timeout }),
        (why) => {
          options.log.event(`the server stopped answering (${why}); its calls are given up`)
          // Closing fails the calls still waiting, and the supervisor restarts the server.
          void client.close()
        }
      )
    }
    try {
      await client.connect(transport, { timeout: options.startupTimeoutMs })
      connection.tree?.found(connection.pid)
      options.log.event(
        kind === 'stdio'
          ? `started (pid ${connection.pid ?? '?'})`
          : `connected over ${TRANSPORT_NAME[kind]}`
      )
      await connection.refresh(options.startupTimeoutMs)
    } catch (error) {
      connection.closing = true
      connection.unwatch.abort()
      await transport.close().catch(() => undefined)
      const target = options.target
      const message =
        target.kind === 'stdio'
          ? stdioStartFailure({ ...options, error, target, exited })
          : remoteStartFailure(
              error,
              target,
              kind === 'sse' ? 'sse' : 'http',
              options.startupTimeoutMs
            )
      // What a server that failed to start had started goes too (after the reason was read:
      // ending it here would make a silent server look like one that exited).
      await connection.tree?.end()
      throw new Error(message, { cause: error })
    }
    connection.watchLists()
    connection.watchProcess()
    connection.opened = true
    return connection
  }

  /**
   * Calls a tool. With `onProgress` the server is sent a progress token, and every report it
   * sends restarts the request's timeout: a long job that keeps saying how far it got is not
   * cut off, one that goes quiet still is.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onProgress?: (progress: McpProgress) => void
  ): Promise<CallToolResult> {
    const progress = onProgress && {
      onprogress: (p: Progress) =>
        onProgress({ progress: p.progress, total: p.total ?? null, message: p.message ?? null }),
      resetTimeoutOnProgress: true
    }
    const ended = this.liveness?.begin()
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, {
        timeout: REQUEST_TIMEOUT_MS,
        signal,
        ...progress
      })
      return result as CallToolResult
    } finally {
      ended?.()
    }
  }

  /** A resource's contents as the server reads them (resources/read). */
  async readResource(uri: string): Promise<ReadResourceResult['contents']> {
    const result = await this.client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS })
    return result.contents
  }

  /** A prompt's messages as one text for the chat input; other content named in brackets. */
  async getPromptText(name: string, args: Record<string, string>): Promise<string> {
    const result: GetPromptResult = await this.client.getPrompt(
      { name, arguments: args },
      { timeout: REQUEST_TIMEOUT_MS }
    )
    return result.messages
      .map(({ content }) => {
        if (content.type === 'text') return content.text
        if (content.type === 'resource' && 'text' in content.resource) {
          return String(content.resource.text)
        }
        return `[${content.type}]`
      })
      .join('\n\n')
  }

  /** Lists tools, resources and prompts again (all pages). */
  async refresh(timeout = REQUEST_TIMEOUT_MS): Promise<void> {
    const caps = this.client.getServerCapabilities() ?? {}
    const tools: SdkTool[] = []
    if (caps.tools) {
      let cursor: string | undefined
      do {
        const page = await this.client.listTools(cursor ? { cursor } : {}, { timeout })
        tools.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor)
    }
    const resources = await this.extras(caps.resources, 'resources', async () =>
      (await this.client.listResources({}, { timeout })).resources.map((res) => ({
        uri: res.uri,
        name: res.name,
        description: res.description ?? null,
        mimeType: res.mimeType ?? null
      }))
    )
    const prompts = await this.extras(caps.prompts, 'prompts', async () =>
      (await this.client.listPrompts({}, { timeout })).prompts.map((p) => ({
        name: p.name,
        title: p.title ?? null,
        description: p.description ?? null,
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          description: a.description ?? null,
          required: a.required ?? false
        }))
      }))
    )
    this.tools = tools
    this.resources = resources
    this.prompts = prompts
  }

  /**
   * Resolves once nothing of a local server that went away by itself is left running: its
   * restart waits for this. Resolved at once for a remote server.
   */
  ended(): Promise<void> {
    return this.tree?.end() ?? Promise.resolve()
  }

  /**
   * Ends the connection; a local server is stopped, and this resolves only once every process it
   * started has ended too (see server-tree.ts), so a restart never overlaps the old one.
   */
  async close(): Promise<void> {
    this.closing = true
    this.liveness?.stop()
    this.unwatch.abort()
    // A process is asked to end as the MCP lifecycle says: its stdin closed, then SIGTERM. The SDK
    // waits 2 s between the two, and servers that keep a timer running past their stdin (the
    // reference server-everything does) made every stop, restart and quit wait those 2 s. A
    // server that ends on the closed stdin has done so well within the grace here. The SIGTERM
    // goes to the server itself, inside its namespace: bubblewrap would not pass it on.
    const tree = this.tree
    const closed = this.client.close().catch(() => undefined)
    const term = tree ? setTimeout(() => tree.signal('SIGTERM'), STDIN_CLOSE_GRACE_MS) : null
    if (tree) {
      // Once the server's own process is gone, what it left goes at once: a leftover holding its
      // stdout would otherwise keep the SDK waiting its whole grace for the pipe to close.
      const done = new AbortController()
      await Promise.race([closed, tree.exited(EXIT_POLL_MS, done.signal)])
      done.abort()
      await tree.end()
    }
    await closed
    if (term) clearTimeout(term)
  }

  /**
   * Watches a local server's own process: one that died while a leftover holds its stdout open
   * would never be seen to close, so its leftovers are ended, the pipe closes, and it is lost.
   */
  private watchProcess(): void {
    const tree = this.tree
    if (!tree) return
    // The first look comes after a poll's pause, off the start's path.
    const first = setTimeout(() => {
      void tree.exited(WATCH_POLL_MS, this.unwatch.signal).then((gone) => {
        if (gone && !this.closing) void tree.end()
      })
    }, WATCH_POLL_MS)
    first.unref()
    this.unwatch.signal.addEventListener('abort', () => clearTimeout(first))
  }

  private watchLists(): void {
    const changed = (): void => {
      this.refresh()
        .then(() => this.options.onListsChanged())
        .catch((error: unknown) => this.noted('listing again after a change', error, undefined))
    }
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, changed)
    this.client.setNotificationHandler(ResourceListChangedNotificationSchema, changed)
    this.client.setNotificationHandler(PromptListChangedNotificationSchema, changed)
  }

  /**
   * Resources or prompts, where the server offers them: extras for the settings screen, so a
   * server that fails to list them still offers its tools (the failure is logged).
   */
  private async extras<T>(
    offered: object | undefined,
    what: 'resources' | 'prompts',
    list: () => Promise<T[]>
  ): Promise<T[]> {
    if (!offered) return []
    return list().catch((error: unknown) => this.noted(`listing ${what}`, error, []))
  }

  private noted<T>(what: string, error: unknown, fallback: T): T {
    this.options.log.event(`${what} failed: ${messageOf(error)}`)
    return fallback
  }
}

/** How long a server has to end once its stdin is closed, before it is sent SIGTERM. */
export const STDIN_CLOSE_GRACE_MS = 300
/** How often a stopping server's process is looked at, and a running one's. */
const EXIT_POLL_MS = 20
const WATCH_POLL_MS = 500

const TRANSPORT_NAME = { stdio: 'stdio', http: 'streamable HTTP', sse: 'the legacy SSE transport' }

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
