import { describe, expect, it } from 'vitest'
import { mcpServerSettingsSchema } from './mcp'

const parse = (server: Record<string, unknown>) =>
  mcpServerSettingsSchema.safeParse({ name: 'remote', ...server })
const messages = (server: Record<string, unknown>): string[] => {
  const result = parse(server)
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('a remote server in the settings', () => {
  it('needs https, except to this machine, however the address is spelt', () => {
    for (const url of [
      'https://mcp.example.com/mcp',
      'http://127.0.0.1:8080/mcp',
      'http://127.1.2.3/mcp',
      'http://localhost:3000/mcp',
      'HTTP://LOCALHOST/mcp',
      'http://[::1]:9000/mcp',
      // The URL parser reads a number as an address: this one is 127.0.0.1.
      'http://2130706433/mcp'
    ]) {
      expect(messages({ url }), url).toEqual([])
    }
    for (const url of [
      'http://mcp.example.com/mcp',
      'http://127.0.0.1.evil.example/mcp',
      'http://localhost.evil.example/mcp',
      'http://0.0.0.0/mcp',
      'http://10.0.0.5/mcp',
      'ws://127.0.0.1/mcp',
      'file:///etc/passwd',
      'mcp.example.com/mcp'
    ]) {
      expect(messages({ url }).join(), url).toMatch(/https|full address/)
    }
  })

  it('takes a client ID metadata document only at an https address with a path, never beside a client_id', () => {
    const url = 'https://mcp.example.com/mcp'
    const oauth = (extra: Record<string, unknown>) => ({ url, auth: { type: 'oauth', ...extra } })
    const doc = 'https://clients.example.org/mecatl.json'
    expect(messages(oauth({ client_metadata_url: doc }))).toEqual([])
    for (const bad of ['http://clients.example.org/mecatl.json', 'javascript:alert(1)', 'mecatl']) {
      expect(messages(oauth({ client_metadata_url: bad })).join(), bad).toContain('https address')
    }
    expect(
      messages(oauth({ client_metadata_url: 'https://clients.example.org/' })).join()
    ).toContain('needs a path')
    expect(messages(oauth({ client_metadata_url: doc, client_id: 'x' })).join()).toContain(
      'either a client_id or a client_metadata_url'
    )
  })

  it('never holds a credential in clear: not in the address, a header or a bearer token', () => {
    expect(messages({ url: 'https://me:hunter2@mcp.example.com/mcp' }).join()).toContain(
      'never written in the settings file in clear'
    )
    expect(messages({ url: 'https://mcp.example.com/mcp?api_key=abc' }).join()).toContain(
      'query parameter api_key'
    )
    expect(messages({ url: 'https://mcp.example.com/mcp?Access-Token=abc' }).join()).toContain(
      'Access-Token'
    )
    const url = 'https://mcp.example.com/mcp'
    for (const headers of [
      { Authorization: 'Bearer sk-live-123' },
      { 'X-Api-Key': 'abc' },
      { Cookie: 'session=1' },
      // Not a reference (no name): the value is still in clear.
      { 'X-Auth-Token': '${env:}' },
      { 'X-Auth-Token': '$REMOTE_TOKEN' }
    ]) {
      expect(messages({ url, headers }).join(), JSON.stringify(headers)).toContain('in clear')
    }
    expect(messages({ url, auth: { type: 'bearer', token: 'sk-live-123' } }).join()).toContain(
      'never written in clear'
    )
    expect(
      messages({ url, auth: { type: 'bearer', token: 'Bearer ${env:TOKEN}' } }).join()
    ).toContain('never written in clear')
    expect(
      messages({
        url,
        headers: { Authorization: 'Bearer ${env:TOKEN}', 'X-Team': 'platform' },
        auth: { type: 'bearer', token: '${secret:NOTION}' }
      })
    ).toEqual([])
  })

  it('refuses headers that would break the transport or smuggle another header in', () => {
    const url = 'https://mcp.example.com/mcp'
    expect(messages({ url, headers: { 'X-Team': 'a\r\nX-Injected: 1' } }).join()).toContain(
      'one line'
    )
    for (const name of ['Mcp-Session-Id', 'content-type', 'Host', 'MCP-PROTOCOL-VERSION']) {
      expect(messages({ url, headers: { [name]: 'x' } }).join(), name).toContain(
        'belongs to the MCP transport'
      )
    }
    expect(messages({ url, headers: { 'Bad Name': 'x' } }).join()).toContain('header name')
  })

  it('is either a command or a url, each with only its own settings', () => {
    expect(messages({}).join()).toContain('give the program to run (command), or the address')
    expect(messages({ command: 'node', url: 'https://mcp.example.com/mcp' }).join()).toContain(
      'not both'
    )
    const url = 'https://mcp.example.com/mcp'
    expect(messages({ url, args: ['x'] }).join()).toContain('args does not apply to a remote')
    expect(messages({ url, sandbox: true }).join()).toContain('sandbox does not apply')
    expect(messages({ url, env: { A: 'b' } }).join()).toContain('env does not apply')
    expect(messages({ command: 'node', headers: { 'X-Team': 'a' } }).join()).toContain(
      'headers does not apply to a server run by command'
    )
    expect(messages({ command: 'node', transport: 'sse' }).join()).toContain('transport does not')
    expect(messages({ url, transport: 'websocket' }).join()).toContain('transport')
    expect(parse({ url, transport: 'sse' }).success).toBe(true)
  })
})
