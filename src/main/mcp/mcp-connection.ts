import path from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { pathToFileURL } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
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
import { exactSpawnEnvironment } from './server-env'

/** Every request to a server gives up after this long. */
export const REQUEST_TIMEOUT_MS = 120_000

/** A program this machine runs, spoken to over its stdin and stdout. */
export interface LocalTarget {
  command: string
  args: readonly string[]
  /** The child's whole environment (see server-env.ts). */
  env: Record<string, string>
  cwd: string
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

  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    /** The transport spoken: a remote server's is known once one has started. */
    readonly kind: TransportKind,
    private readonly options: ConnectionOptions
  ) {}

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
      if (connection.closing) return
      options.log.event(kind === 'stdio' ? 'the server process exited' : 'the connection closed')
      // Only a server that was up is "lost"; one dying during startup fails open() instead.
      if (connection.opened) options.onLost()
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
      options.log.event(
        kind === 'stdio'
          ? `started (pid ${connection.pid ?? '?'})`
          : `connected over ${TRANSPORT_NAME[kind]}`
      )
      await connection.refresh(options.startupTimeoutMs)
    } catch (error) {
      connection.closing = true
      await transport.close().catch(() => undefined)
      const target = options.target
      const message =
        target.kind === 'stdio'
          ? startupFailure(error, target, options, exited)
          : remoteStartFailure(
              error,
              target,
              kind === 'sse' ? 'sse' : 'http',
              options.startupTimeoutMs
            )
      throw new Error(message, { cause: error })
    }
    connection.watchLists()
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
    // Resources and prompts are extras for the settings screen: a server that fails to list
    // them still offers its tools.
    const resources = caps.resources
      ? await this.client
          .listResources({}, { timeout })
          .then((r) =>
            r.resources.map((res) => ({
              uri: res.uri,
              name: res.name,
              description: res.description ?? null,
              mimeType: res.mimeType ?? null
            }))
          )
          .catch((error: unknown) => this.noted('listing resources', error, []))
      : []
    const prompts = caps.prompts
      ? await this.client
          .listPrompts({}, { timeout })
          .then((r) =>
            r.prompts.map((p) => ({
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
          .catch((error: unknown) => this.noted('listing prompts', error, []))
      : []
    this.tools = tools
    this.resources = resources
    this.prompts = prompts
  }

  async close(): Promise<void> {
    this.closing = true
    this.liveness?.stop()
    // A process is asked to end as the MCP lifecycle says: its stdin closed, then SIGTERM. The SDK
    // waits 2 s between the two, and servers that keep a timer running past their stdin (the
    // reference server-everything does) made every stop, restart and quit wait those 2 s. A
    // server that ends on the closed stdin has done so well within the grace here. The pid is
    // read first: the SDK forgets its process as soon as close begins.
    const pid = this.pid
    const closed = this.client.close().catch(() => undefined)
    const term = pid
      ? setTimeout(() => {
          try {
            process.kill(pid, 'SIGTERM')
          } catch {
            // Already gone.
          }
        }, STDIN_CLOSE_GRACE_MS)
      : null
    await closed
    if (term) clearTimeout(term)
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

  private noted<T>(what: string, error: unknown, fallback: T): T {
    this.options.log.event(`${what} failed: ${messageOf(error)}`)
    return fallback
  }
}

/** How long a server has to end once its stdin is closed, before it is sent SIGTERM. */
export const STDIN_CLOSE_GRACE_MS = 300

const TRANSPORT_NAME = { stdio: 'stdio', http: 'streamable HTTP', sse: 'the legacy SSE transport' }

function stdioTransport(target: LocalTarget, log: LogRing): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: exactSpawnEnvironment(target.env),
    cwd: target.cwd,
    // Never the terminal: a server's stderr is its log.
    stderr: 'pipe'
  })
  // A decoder, so a character split across two chunks is not garbled.
  const decoder = new StringDecoder('utf8')
  transport.stderr?.on('data', (chunk: Buffer) => log.stderr(decoder.write(chunk)))
  return transport
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Why a server did not start, in a sentence that says what to check. */
function startupFailure(
  error: unknown,
  target: LocalTarget,
  options: ConnectionOptions,
  exited: boolean
): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') {
    return `the command "${target.command}" was not found; check the command, or give its full path (the server's PATH is ${target.env.PATH ?? 'empty'})`
  }
  if (code === 'EACCES') {
    return `the command "${target.command}" cannot be run (permission denied); check that it is an executable program`
  }
  const tail = options.log.tail(5)
  const printed = tail.length > 0 ? `; it printed: ${tail.join(' | ')}` : ''
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout && !exited) {
    return `the server did not answer the MCP handshake within ${Math.round(options.startupTimeoutMs / 1000)} s; check that "${target.command}" is an MCP server speaking stdio${printed}`
  }
  if (exited || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    return `the server exited during startup${printed || '; it printed nothing on stderr'}`
  }
  return `the server failed to start: ${messageOf(error)}${printed}`
}
