// One MCP server per client session, built on the SDK's own McpServer: a session owns one
// transport, and McpServer refuses a second connect, so the remote fixture makes one per session.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { RequestId, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

/** The text of the fixed resource `note://hello`. */
export const HELLO_TEXT = 'Hello from the remote fixture.'

/** The text of the fixed resource `note://todo`. */
export const TODO_TEXT = '- water the plants\n- call home'

/** Annotations a test gives the fixed tools (absent: the tool is unannotated). */
export interface FixedToolAnnotations {
  echo?: ToolAnnotations
  slow?: ToolAnnotations
}

/** What every session of one fixture shares: the tools added later and the observations. */
export interface SharedState {
  annotations: FixedToolAnnotations
  extraTools: { name: string; description: string }[]
  /** Resolvers of the `slow` calls still waiting for release() or a cancel. */
  pendingSlow: Set<() => void>
  cancelled: RequestId[]
  /** JSON-RPC ids of the `slow` calls, in the order they started. */
  slowCalls: RequestId[]
  counts: { progressSent: number }
}

/** One live client session, whichever transport carries it. */
export interface FixtureSession {
  id: string
  kind: 'streamable' | 'sse'
  server: McpServer
  transport: Transport
  /** The stream server-initiated messages travel on is open (GET stream, or the SSE stream). */
  streamOpen: boolean
}

/** Builds the session's McpServer with the fixed tools, the added tools and the resources. */
export function buildSessionServer(state: SharedState): McpServer {
  const server = new McpServer(
    { name: 'remote-fixture', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, resources: { listChanged: true } } }
  )
  server.registerTool(
    'echo',
    {
      description: 'Returns the text it is given.',
      inputSchema: { text: z.string() },
      annotations: state.annotations.echo
    },
    ({ text }) => ({ content: [{ type: 'text', text }] })
  )
  server.registerTool(
    'slow',
    {
      description: 'Waits until the call is cancelled or the test releases it.',
      inputSchema: { steps: z.number().int().min(1).max(10).optional() },
      annotations: state.annotations.slow
    },
    async ({ steps }, extra) => {
      state.slowCalls.push(extra.requestId)
      const token = extra._meta?.progressToken
      if (token !== undefined) {
        const total = steps ?? 1
        for (let progress = 1; progress <= total; progress++) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total, message: `step ${progress}` }
          })
          state.counts.progressSent++
        }
      }
      const outcome = await new Promise<string>((resolve) => {
        const release = (): void => resolve('released')
        state.pendingSlow.add(release)
        extra.signal.addEventListener(
          'abort',
          () => {
            state.pendingSlow.delete(release)
            resolve('cancelled')
          },
          { once: true }
        )
      })
      // After a cancel the SDK sends no response at all; the text only shows up after release().
      return { content: [{ type: 'text', text: outcome }] }
    }
  )
  for (const tool of state.extraTools) registerExtraTool(server, tool.name, tool.description)
  for (const [name, text] of [
    ['hello', HELLO_TEXT],
    ['todo', TODO_TEXT]
  ] as const) {
    server.registerResource(
      name,
      `note://${name}`,
      { mimeType: 'text/plain', description: `The fixed ${name} note.` },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text }] })
    )
  }
  return server
}

/** Registers a tool added by the test; McpServer sends tools/list_changed when connected. */
export function registerExtraTool(server: McpServer, name: string, description: string): void {
  server.registerTool(name, { description }, () => ({
    content: [{ type: 'text', text: `${name} was called` }]
  }))
}

/**
 * Records the request id of every `notifications/cancelled` the transport delivers. Set before
 * connect: Protocol.connect chains an onmessage that was already there, so the SDK's own cancel
 * handling (which aborts the handler's signal) still runs.
 */
export function observeCancels(transport: Transport, state: SharedState): void {
  transport.onmessage = (message): void => {
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId
      if (requestId !== undefined) state.cancelled.push(requestId)
    }
  }
}
