// A remote MCP server on 127.0.0.1 built from the SDK's own server transports, so the remote
// client is tested against the reference implementation rather than against our reading of it.
// The old-server mode answers a POST to the MCP endpoint with 405, one of the three codes
// ("400 Bad Request", "404 Not Found" or "405 Method Not Allowed") on which the specification's
// backwards compatibility section tells a client to try the HTTP+SSE transport instead.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import {
  isInitializeRequest,
  type ElicitRequestFormParams,
  type ElicitResult,
  type ListRootsResult,
  type RequestId
} from '@modelcontextprotocol/sdk/types.js'
import {
  buildSessionServer,
  observeCancels,
  registerExtraTool,
  type FixedToolAnnotations,
  type FixtureSession,
  type SharedState
} from './remote-mcp-session'
import { INVALID, headerOf, plain, readJson, record } from './remote-mcp-http'
import { registerAskTool } from './remote-mcp-ask'

export { HELLO_TEXT, TODO_TEXT } from './remote-mcp-session'

/** `streamable`: /mcp only. `sse-only`: an old server (legacy SSE at /mcp and /sse). `both`. */
export type RemoteMcpMode = 'streamable' | 'sse-only' | 'both'

/** How the fixture behaves. */
export interface RemoteMcpServerOptions {
  mode: RemoteMcpMode
  /** Annotations of the fixed tools `echo` and `slow`. */
  tools?: FixedToolAnnotations
  /** Every request without this header (exact value) gets 401 and lands in `unauthorized`. */
  requireHeader?: { name: string; value: string }
  /** Adds the tool `ask` (see remote-mcp-ask.ts), asking with this form (or its default one). */
  ask?: { form?: ElicitRequestFormParams['requestedSchema'] }
}

/** One HTTP request as it arrived. */
export interface RecordedRequest {
  method: string
  /** Path and query, as sent. */
  path: string
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>
}

/** A running fixture. Arrays fill in arrival order while the server runs. */
export interface RemoteMcpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** The MCP endpoint, `<origin>/mcp`. */
  url: string
  requests: RecordedRequest[]
  /** The requests refused with 401 for lacking `requireHeader`. */
  unauthorized: RecordedRequest[]
  /** Request ids for which a `notifications/cancelled` arrived. */
  cancelled: RequestId[]
  /** JSON-RPC ids of the `slow` calls that started (they wait until cancelled or released). */
  slowCalls: RequestId[]
  readonly progressSent: number
  /** Live sessions, oldest first. */
  sessions(): { id: string; kind: 'streamable' | 'sse'; streamOpen: boolean }[]
  /**
   * Resolves when the latest session's server-to-client stream is open (the streamable GET
   * stream, which the SDK client opens after initialize). Until then the SDK drops list_changed
   * notifications and server requests, so wait for it before addTool(), elicit() or listRoots().
   */
  streamOpen(timeoutMs?: number): Promise<void>
  /** Registers a tool on every live session (each sends tools/list_changed) and on later ones. */
  addTool(name: string, description: string): void
  /** Lets every waiting `slow` call return `released`. */
  release(): void
  /** Sends `elicitation/create` to the latest client; resolves with its answer. An abort cancels it. */
  elicit(
    message: string,
    schema: ElicitRequestFormParams['requestedSchema'],
    options?: { signal?: AbortSignal }
  ): Promise<ElicitResult>
  /** Asks the latest client for `roots/list`. */
  listRoots(): Promise<ListRootsResult>
  /** Ends every session and the HTTP server. */
  close(): Promise<void>
  /**
   * Dies as a killed process would: every connection cut mid-stream, nothing answered, the
   * port no longer listening. close() may still be called after.
   */
  crash(): Promise<void>
}

/** Starts the fixture on 127.0.0.1 on a free port. */
export async function startRemoteMcpServer(
  options: RemoteMcpServerOptions
): Promise<RemoteMcpServer> {
  const state: SharedState = {
    annotations: options.tools ?? {},
    extraTools: [],
    pendingSlow: new Set(),
    cancelled: [],
    slowCalls: [],
    counts: { progressSent: 0 }
  }
  const requests: RecordedRequest[] = []
  const unauthorized: RecordedRequest[] = []
  const sessions = new Map<string, FixtureSession>()
  const streamWaiters = new Set<() => void>()
  const streamable = options.mode !== 'sse-only'
  const legacyPaths =
    options.mode === 'streamable' ? [] : options.mode === 'both' ? ['/sse'] : ['/mcp', '/sse']

  const latest = (): FixtureSession | undefined => [...sessions.values()].at(-1)
  const markStream = (session: FixtureSession, res: http.ServerResponse): void => {
    let opened = false
    // Only the response that opened the stream closes it: the SDK answers a second GET with 409.
    res.on('close', () => {
      if (opened) session.streamOpen = false
    })
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse
    // The SDK registers its GET stream before it answers; headers with 200 mean it is in place.
    res.writeHead = ((...args: unknown[]) => {
      if (args[0] === 200) {
        opened = true
        session.streamOpen = true
        for (const wake of streamWaiters) wake()
      }
      return writeHead(...args)
    }) as typeof res.writeHead
  }

  const startStreamable = async (
    body: unknown,
    req: http.IncomingMessage,
    res: http.ServerResponse
  ): Promise<void> => {
    const server = buildSessionServer(state)
    if (options.ask) registerAskTool(server, options.ask.form)
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { id, kind: 'streamable', server, transport, streamOpen: false })
      }
    })
    transport.onclose = (): void => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    observeCancels(transport, state)
    await server.connect(transport)
    await transport.handleRequest(req, res, body)
  }

  const startLegacy = async (res: http.ServerResponse): Promise<void> => {
    const server = buildSessionServer(state)
    if (options.ask) registerAskTool(server, options.ask.form)
    const transport = new SSEServerTransport('/messages', res)
    const session: FixtureSession = {
      id: transport.sessionId,
      kind: 'sse',
      server,
      transport,
      streamOpen: false
    }
    markStream(session, res)
    sessions.set(session.id, session)
    transport.onclose = (): void => void sessions.delete(session.id)
    observeCancels(transport, state)
    await server.connect(transport)
  }

  const route = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const method = req.method ?? 'GET'
    const sessionId = headerOf(req, 'mcp-session-id')
    if (url.pathname === '/mcp' && streamable) {
      if (sessionId !== undefined) {
        const session = sessions.get(sessionId)
        if (session?.kind !== 'streamable')
          return plain(res, 404, 'Session not found: start a new session with initialize.')
        if (method === 'GET') markStream(session, res)
        const body = method === 'POST' ? await readJson(req, res) : undefined
        if (body === INVALID) return
        await (session.transport as StreamableHTTPServerTransport).handleRequest(req, res, body)
        return
      }
      if (method !== 'POST')
        return plain(res, 400, 'Bad Request: no Mcp-Session-Id; POST initialize first.')
      const body = await readJson(req, res)
      if (body === INVALID) return
      if (!isInitializeRequest(body))
        return plain(
          res,
          400,
          'Bad Request: no Mcp-Session-Id; the first message must be initialize.'
        )
      return startStreamable(body, req, res)
    }
    if (legacyPaths.includes(url.pathname)) {
      if (method === 'GET') return startLegacy(res)
      res.setHeader('Allow', 'GET')
      return plain(
        res,
        405,
        'Method Not Allowed: this is an HTTP+SSE (2024-11-05) server; GET this URL for the event stream.'
      )
    }
    if (url.pathname === '/messages' && legacyPaths.length > 0 && method === 'POST') {
      const session = sessions.get(url.searchParams.get('sessionId') ?? '')
      if (session?.kind !== 'sse')
        return plain(res, 404, 'Unknown sessionId: open the SSE stream again.')
      const body = await readJson(req, res)
      if (body === INVALID) return
      await (session.transport as SSEServerTransport).handlePostMessage(req, res, body)
      return
    }
    plain(res, 404, `Not Found: ${url.pathname}`)
  }

  const httpServer = http.createServer((req, res) => {
    const recorded = record(req)
    requests.push(recorded)
    const need = options.requireHeader
    if (need && headerOf(req, need.name.toLowerCase()) !== need.value) {
      unauthorized.push(recorded)
      plain(res, 401, `Unauthorized: send the ${need.name} header.`)
      return
    }
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) plain(res, 500, `Fixture error: ${String(error)}`)
      else res.end()
    })
  })
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve))
  const { port } = httpServer.address() as AddressInfo
  const origin = `http://127.0.0.1:${port}`

  const client = (): FixtureSession => {
    const session = latest()
    if (!session) throw new Error('No client is connected to the fixture: connect one first.')
    if (!session.streamOpen) {
      // The SDK would drop the request silently and the caller would wait out its timeout.
      throw new Error(
        'The latest client has no stream open to receive requests: await streamOpen().'
      )
    }
    return session
  }

  return {
    origin,
    url: `${origin}/mcp`,
    requests,
    unauthorized,
    cancelled: state.cancelled,
    slowCalls: state.slowCalls,
    get progressSent(): number {
      return state.counts.progressSent
    },
    sessions: () =>
      [...sessions.values()].map(({ id, kind, streamOpen }) => ({ id, kind, streamOpen })),
    streamOpen: (timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const check = (): boolean => {
          if (!latest()?.streamOpen) return false
          clearTimeout(timer)
          streamWaiters.delete(wake)
          resolve()
          return true
        }
        const wake = (): void => void check()
        const timer = setTimeout(() => {
          streamWaiters.delete(wake)
          reject(new Error(`No server-to-client stream opened within ${timeoutMs} ms.`))
        }, timeoutMs)
        streamWaiters.add(wake)
        check()
      }),
    addTool: (name, description) => {
      if (['echo', 'slow', ...state.extraTools.map((t) => t.name)].includes(name)) {
        throw new Error(`Tool ${name} already exists on the fixture; pick another name.`)
      }
      state.extraTools.push({ name, description })
      for (const session of sessions.values()) registerExtraTool(session.server, name, description)
    },
    release: () => {
      for (const release of state.pendingSlow) release()
      state.pendingSlow.clear()
    },
    elicit: async (message, requestedSchema, elicitOptions) =>
      client().server.server.elicitInput(
        { mode: 'form', message, requestedSchema },
        { signal: elicitOptions?.signal }
      ),
    listRoots: async () => client().server.server.listRoots(),
    close: async () => {
      for (const release of state.pendingSlow) release()
      state.pendingSlow.clear()
      await Promise.allSettled([...sessions.values()].map((s) => s.server.close()))
      sessions.clear()
      httpServer.closeAllConnections()
      await new Promise<void>((resolve) => httpServer.close(() => resolve()))
    },
    crash: async () => {
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()))
      httpServer.closeAllConnections()
      await closed
    }
  }
}
