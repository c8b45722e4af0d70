// Fake search backends on 127.0.0.1, one per wire format, for the chain's tests.
import type http from 'node:http'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { startLocalServer, type LocalServer } from './web-test-server'

export interface FakeHit {
  title: string
  url: string
  snippet: string
}

/** What a fake backend does: answer with these hits, or fail with an HTTP status. */
export type FakeBehaviour = { hits: FakeHit[] } | { status: number }

function reply(res: http.ServerResponse, behaviour: FakeBehaviour, body: () => unknown): void {
  if ('status' in behaviour) {
    res.writeHead(behaviour.status, { 'content-type': 'application/json' })
    res.end('{"error":"rate limited"}')
    return
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body()))
}

/** SearXNG: GET /search?q=…&format=json → {results: [{title, url, content}]}. */
export function fakeSearxng(
  behaviour: FakeBehaviour
): Promise<LocalServer & { queries: string[] }> {
  const queries: string[] = []
  return startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
      res.writeHead(404).end()
      return
    }
    queries.push(url.searchParams.get('q') ?? '')
    reply(res, behaviour, () => ({
      query: url.searchParams.get('q'),
      results:
        'hits' in behaviour
          ? behaviour.hits.map((h) => ({ title: h.title, url: h.url, content: h.snippet }))
          : []
    }))
  }).then((server) => Object.assign(server, { queries }))
}

/** Brave: GET ?q=… with X-Subscription-Token → {web: {results: [{title, url, description}]}}. */
export function fakeBrave(behaviour: FakeBehaviour, key: string): Promise<LocalServer> {
  return startLocalServer((req, res) => {
    if (req.headers['x-subscription-token'] !== key) {
      res.writeHead(401).end()
      return
    }
    reply(res, behaviour, () => ({
      web: {
        results:
          'hits' in behaviour
            ? behaviour.hits.map((h) => ({
                title: h.title,
                url: h.url,
                description: `<strong>${h.snippet}</strong>`
              }))
            : []
      }
    }))
  })
}

/** A generic JSON service: GET ?query=… with a bearer key → {items: [{title, link, description}]}. */
export function fakeHttpJson(behaviour: FakeBehaviour, key: string): Promise<LocalServer> {
  return startLocalServer((req, res) => {
    if ('hits' in behaviour && req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401).end()
      return
    }
    reply(res, behaviour, () => ({
      items:
        'hits' in behaviour
          ? behaviour.hits.map((h) => ({ title: h.title, link: h.url, description: h.snippet }))
          : []
    }))
  })
}

/** Exa's MCP endpoint: a Streamable HTTP MCP server with a `web_search_exa` tool. */
export function fakeExa(behaviour: FakeBehaviour): Promise<LocalServer & { keys: string[] }> {
  const keys: string[] = []
  return startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    keys.push(url.searchParams.get('exaApiKey') ?? '')
    if ('status' in behaviour) {
      res.writeHead(behaviour.status).end('service unavailable')
      return
    }
    const server = new Server(
      { name: 'fake-exa', version: '1.0.0' },
      { capabilities: { tools: {} } }
    )
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        {
          name: 'web_search_exa',
          inputSchema: { type: 'object', properties: { query: { type: 'string' } } }
        }
      ]
    }))
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({
      content: [
        {
          type: 'text',
          text: behaviour.hits
            .map(
              (h) =>
                `Title: ${h.title}\nURL: ${h.url}\nText: ${h.snippet} (${String(request.params.arguments?.query)})`
            )
            .join('\n\n')
        }
      ]
    }))
    // Stateless: one server and transport per request, as a serverless endpoint runs.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => void transport.close())
    void server.connect(transport).then(() => transport.handleRequest(req, res))
  }).then((server) => Object.assign(server, { keys }))
}

/** One request a {@link fakeJsonService} saw: how the query came, and with which headers. */
export interface SeenRequest {
  method: string
  /** The URL's parameters. */
  params: URLSearchParams
  /** The body's form parameters (empty for a GET). */
  form: URLSearchParams
  headers: http.IncomingHttpHeaders
}

/**
 * A generic JSON service that answers any method with {results: [{title, url, snippet}]}, and
 * records each request so a test can see where the query and the key went.
 */
export function fakeJsonService(
  behaviour: FakeBehaviour
): Promise<LocalServer & { requests: SeenRequest[] }> {
  const requests: SeenRequest[] = []
  return startLocalServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        params: new URL(req.url ?? '/', 'http://x').searchParams,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        headers: req.headers
      })
      reply(res, behaviour, () => ({ results: 'hits' in behaviour ? behaviour.hits : [] }))
    })
  }).then((server) => Object.assign(server, { requests }))
}
