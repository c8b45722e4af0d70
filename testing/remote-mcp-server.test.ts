// The remote fixture proved with the SDK's own client transports, so a failure in the Mecatl
// client's tests points at the client and not at the fixture.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema
} from '@modelcontextprotocol/sdk/types.js'
import { HELLO_TEXT, startRemoteMcpServer, type RemoteMcpServer } from './remote-mcp-server'

const running: { servers: RemoteMcpServer[]; clients: Client[] } = { servers: [], clients: [] }

afterEach(async () => {
  await Promise.allSettled(running.clients.splice(0).map((c) => c.close()))
  await Promise.all(running.servers.splice(0).map((s) => s.close()))
})

async function fixture(
  options: Parameters<typeof startRemoteMcpServer>[0]
): Promise<RemoteMcpServer> {
  const server = await startRemoteMcpServer(options)
  running.servers.push(server)
  return server
}

function newClient(): Client {
  const client = new Client(
    { name: 'fixture-test', version: '1.0.0' },
    { capabilities: { elicitation: {}, roots: { listChanged: true } } }
  )
  running.clients.push(client)
  return client
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content
  return content.map((c) => c.text ?? '').join('')
}

const bounded = { timeout: 5000, interval: 10 }

describe('remote MCP fixture, streamable HTTP', () => {
  it('lists and calls tools with their annotations, and reads the fixed resources', async () => {
    const server = await fixture({ mode: 'streamable', tools: { echo: { readOnlyHint: true } } })
    const client = newClient()
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'slow'])
    expect(tools.find((t) => t.name === 'echo')?.annotations).toEqual({ readOnlyHint: true })
    expect(tools.find((t) => t.name === 'slow')?.annotations).toBeUndefined()
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'héllo ✓' } }))).toBe(
      'héllo ✓'
    )

    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual(['note://hello', 'note://todo'])
    const read = await client.readResource({ uri: 'note://hello' })
    expect(read.contents[0]).toMatchObject({ uri: 'note://hello', text: HELLO_TEXT })

    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/mcp')
    expect(posts[0]?.headers.accept).toContain('text/event-stream')
    expect(posts.at(-1)?.headers['mcp-session-id']).toBe(server.sessions()[0]?.id)
  })

  it('sends tools/list_changed to a live session when a tool is added', async () => {
    const server = await fixture({ mode: 'streamable' })
    const client = newClient()
    let changed = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++)
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    await server.streamOpen()

    server.addTool('late', 'Added after connect.')
    await vi.waitFor(() => expect(changed).toBe(1), bounded)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('late')
    expect(textOf(await client.callTool({ name: 'late', arguments: {} }))).toBe('late was called')
    expect(() => server.addTool('late', 'again')).toThrow(/already exists/)
  })

  it('relays an elicitation and a roots request to the client and back', async () => {
    const server = await fixture({ mode: 'streamable' })
    const client = newClient()
    client.setRequestHandler(ElicitRequestSchema, (request) => ({
      action: 'accept',
      content: { name: `typed for: ${request.params.message}` }
    }))
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: 'file:///work/project', name: 'project' }]
    }))
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    await server.streamOpen()

    const answer = await server.elicit('Your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name']
    })
    expect(answer).toEqual({ action: 'accept', content: { name: 'typed for: Your name?' } })
    expect(await server.listRoots()).toEqual({
      roots: [{ uri: 'file:///work/project', name: 'project' }]
    })
  })

  it('rejects elicit() with the client error when the client refuses', async () => {
    const server = await fixture({ mode: 'streamable' })
    const client = newClient()
    client.setRequestHandler(ElicitRequestSchema, () => {
      throw new Error('headless: no one to ask')
    })
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    await server.streamOpen()
    await expect(server.elicit('Anyone?', { type: 'object', properties: {} })).rejects.toThrow(
      /headless: no one to ask/
    )
  })

  it('records the cancel of a slow call aborted by the client, and its progress', async () => {
    const server = await fixture({ mode: 'streamable' })
    const client = newClient()
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const abort = new AbortController()
    const progress: number[] = []
    const call = client.callTool({ name: 'slow', arguments: { steps: 2 } }, undefined, {
      signal: abort.signal,
      onprogress: (p) => progress.push(p.progress)
    })
    await vi.waitFor(() => expect(progress).toEqual([1, 2]), bounded)
    expect(server.progressSent).toBe(2)
    abort.abort('stopped by the person')
    await expect(call).rejects.toThrow()

    await vi.waitFor(() => expect(server.cancelled).toHaveLength(1), bounded)
    expect(server.cancelled).toEqual(server.slowCalls)
    // The session goes on after the cancel.
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe(
      'still here'
    )
  })

  it('lets release() finish a slow call normally, without progress when none was asked', async () => {
    const server = await fixture({ mode: 'streamable' })
    const client = newClient()
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const call = client.callTool({ name: 'slow', arguments: {} })
    await vi.waitFor(() => expect(server.slowCalls).toHaveLength(1), bounded)
    server.release()
    expect(textOf(await call)).toBe('released')
    expect(server.progressSent).toBe(0)
    expect(server.cancelled).toEqual([])
  })

  it('ends the session on DELETE and answers 404 for its id afterwards', async () => {
    const server = await fixture({ mode: 'streamable' })
    const transport = new StreamableHTTPClientTransport(new URL(server.url))
    const client = newClient()
    await client.connect(transport)
    const id = server.sessions()[0]?.id ?? 'missing'
    await transport.terminateSession()
    await vi.waitFor(() => expect(server.sessions()).toEqual([]), bounded)
    const stale = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' })
    })
    expect(stale.status).toBe(404)
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(true)
  })
})

describe('remote MCP fixture, an old HTTP+SSE server', () => {
  it('answers POST /mcp with 405, a code the spec names for falling back', async () => {
    const server = await fixture({ mode: 'sse-only' })
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream'
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' }
        }
      })
    })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
  })

  it('makes the SDK streamable client fail with the 405, and its SSE client work', async () => {
    const server = await fixture({ mode: 'sse-only', tools: { slow: { openWorldHint: true } } })
    const failed = newClient()
    const error = await failed.connect(new StreamableHTTPClientTransport(new URL(server.url))).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(StreamableHTTPError)
    expect((error as StreamableHTTPError).code).toBe(405)

    const client = newClient()
    await client.connect(new SSEClientTransport(new URL(server.url)))
    expect(server.sessions().map((s) => s.kind)).toEqual(['sse'])
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('old')
    const { tools } = await client.listTools()
    expect(tools.find((t) => t.name === 'slow')?.annotations).toEqual({ openWorldHint: true })
    const get = server.requests.find((r) => r.method === 'GET' && r.path === '/mcp')
    expect(get?.headers.accept).toBe('text/event-stream')
    expect(server.requests.some((r) => r.path.startsWith('/messages?sessionId='))).toBe(true)
  })

  it('records a cancel sent over the legacy transport', async () => {
    const server = await fixture({ mode: 'sse-only' })
    const client = newClient()
    await client.connect(new SSEClientTransport(new URL(server.url)))
    const abort = new AbortController()
    const call = client.callTool({ name: 'slow', arguments: {} }, undefined, {
      signal: abort.signal
    })
    await vi.waitFor(() => expect(server.slowCalls).toHaveLength(1), bounded)
    abort.abort()
    await expect(call).rejects.toThrow()
    await vi.waitFor(() => expect(server.cancelled).toHaveLength(1), bounded)
    expect(server.cancelled).toEqual(server.slowCalls)
  })

  it('serves both transports in mode both: streamable at /mcp, legacy at /sse', async () => {
    const server = await fixture({ mode: 'both' })
    const modern = newClient()
    await modern.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const legacy = newClient()
    await legacy.connect(new SSEClientTransport(new URL(`${server.origin}/sse`)))
    expect(server.sessions().map((s) => s.kind)).toEqual(['streamable', 'sse'])
    expect(textOf(await legacy.callTool({ name: 'echo', arguments: { text: 'a' } }))).toBe('a')
    expect(textOf(await modern.callTool({ name: 'echo', arguments: { text: 'b' } }))).toBe('b')
  })
})

describe('remote MCP fixture, requireHeader', () => {
  const requireHeader = { name: 'Authorization', value: 'Bearer s3cret' }

  it('refuses requests without the header with 401 and records them', async () => {
    const server = await fixture({ mode: 'streamable', requireHeader })
    const error = await newClient()
      .connect(new StreamableHTTPClientTransport(new URL(server.url)))
      .then(
        () => undefined,
        (e: unknown) => e
      )
    expect((error as StreamableHTTPError).code).toBe(401)
    const wrong = await fetch(server.url, {
      method: 'POST',
      headers: { authorization: 'Bearer s3cre' }
    })
    expect(wrong.status).toBe(401)
    expect(server.unauthorized).toHaveLength(2)
    expect(server.sessions()).toEqual([])
  })

  it('lets a client that sends the header in', async () => {
    const server = await fixture({ mode: 'streamable', requireHeader })
    const client = newClient()
    const headers = { Authorization: 'Bearer s3cret' }
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } })
    )
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'in' } }))).toBe('in')
    expect(server.unauthorized).toEqual([])
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer s3cret')).toBe(true)
  })

  it('guards the legacy SSE stream and its message endpoint too', async () => {
    const server = await fixture({ mode: 'sse-only', requireHeader })
    const error = await newClient()
      .connect(new SSEClientTransport(new URL(server.url)))
      .then(
        () => undefined,
        (e: unknown) => e
      )
    expect(error).toBeInstanceOf(Error)
    expect(server.unauthorized.length).toBeGreaterThan(0)

    const client = newClient()
    const headers = { Authorization: 'Bearer s3cret' }
    await client.connect(
      new SSEClientTransport(new URL(server.url), {
        requestInit: { headers },
        eventSourceInit: {
          fetch: (url, init) => fetch(url, { ...init, headers: { ...init?.headers, ...headers } })
        }
      })
    )
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'ok' } }))).toBe('ok')
  })
})

describe('remote MCP fixture, malformed requests', () => {
  it('answers bad bodies, unknown sessions and unknown paths with a 4xx and keeps serving', async () => {
    const server = await fixture({ mode: 'both' })
    const accept = 'application/json, text/event-stream'
    const post = (
      path: string,
      body: string,
      extra: Record<string, string> = {}
    ): Promise<Response> =>
      fetch(`${server.origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, ...extra },
        body
      })
    const statuses = [
      (await post('/mcp', '{"jsonrpc":"2.0","id":1,"method":')).status,
      (await post('/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))).status,
      (await post('/mcp', '{}', { 'mcp-session-id': 'no-such-session' })).status,
      (await post('/messages?sessionId=no-such-session', '{}')).status,
      (await post('/sse', '{}')).status,
      (await fetch(server.url)).status,
      (await fetch(`${server.origin}/mcp/`)).status,
      (await post('/mcp', 'x'.repeat(4 * 1024 * 1024 + 1))).status
    ]
    expect(statuses).toEqual([400, 400, 404, 404, 405, 400, 404, 413])
    expect(server.sessions()).toEqual([])

    const client = newClient()
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'fine' } }))).toBe(
      'fine'
    )
  })
})

describe('remote MCP fixture, close', () => {
  it('ends live sessions of both kinds and frees the port, with a slow call still waiting', async () => {
    const server = await startRemoteMcpServer({ mode: 'both' })
    const modern = newClient()
    await modern.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    const legacy = newClient()
    await legacy.connect(new SSEClientTransport(new URL(`${server.origin}/sse`)))
    const call = modern.callTool({ name: 'slow', arguments: {} })
    await vi.waitFor(() => expect(server.slowCalls).toHaveLength(1), bounded)

    await server.close()
    expect(server.sessions()).toEqual([])
    await expect(fetch(server.url)).rejects.toThrow()
    // The SDK client does not fail a call whose server went away: the call waits until the
    // client is closed (or its request timeout), so the Mecatl client must not rely on it.
    await modern.close()
    await expect(call).rejects.toThrow(/Connection closed/)
  })
})
