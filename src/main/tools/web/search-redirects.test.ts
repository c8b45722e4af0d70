import type http from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { websearchSettingsSchema } from '../../../shared/websearch'
import { fakeSearxng } from '../../../../testing/fake-search-backends'
import { searchChain } from './search-chain'
import { startLocalServer, type LocalServer } from '../../../../testing/web-test-server'

const servers: LocalServer[] = []
afterAll(async () => {
  for (const server of servers) await server.close()
})

async function serve(handler: http.RequestListener): Promise<LocalServer> {
  const server = await startLocalServer(handler)
  servers.push(server)
  return server
}

const keys = {
  env: { BRAVE_API_KEY: 'brave-key', WEBSEARCH_API_KEY: 'json-key', EXA_API_KEY: 'exa-key' }
}

describe('search backends and redirects', () => {
  it('never follow a redirect: no key, header or query reaches a second origin', async () => {
    // The second origin records whatever reaches it: nothing must.
    const received: http.IncomingHttpHeaders[] = []
    const elsewhere = await serve((req, res) => {
      received.push(req.headers)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"results":[]}')
    })
    const redirector = await serve((req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}${req.url ?? '/'}` }).end()
    })
    const good = await fakeSearxng({
      hits: [{ title: 'Fine', url: 'https://example.org/fine', snippet: 'ok' }]
    })
    servers.push(good)
    const backends = [
      { kind: 'brave', url: redirector.origin },
      { kind: 'http', url: redirector.origin, auth: 'header', auth_header: 'X-Key' },
      { kind: 'http', url: redirector.origin, auth: 'bearer' },
      { kind: 'searxng', url: redirector.origin },
      { kind: 'exa', url: `${redirector.origin}/mcp` },
      { kind: 'searxng', url: good.origin }
    ]
    const settings = websearchSettingsSchema.parse({ backends, timeout_ms: 5000 })
    const outcome = await searchChain(settings, 'q', 5, keys, new AbortController().signal)

    expect(received).toEqual([])
    // Each redirecting backend failed on its own, and the chain moved on to the one that answers.
    expect(outcome).toMatchObject({ ok: true, backend: `searxng (${good.origin})` })
    expect(outcome.failures).toHaveLength(5)
    for (const failure of outcome.failures) expect(failure).toMatch(/never follow redirects/)
    expect(outcome.failures[0]).toMatch(
      /HTTP 302 to http:\/\/127\.0\.0\.1:\d+\); search backends never/
    )
    // The message names where it led, but never the query string that carried the key.
    expect(outcome.failures.join('\n')).not.toMatch(/exa-key|brave-key|json-key/)
  })
})
