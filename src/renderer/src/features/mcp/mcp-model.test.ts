import { describe, expect, it } from 'vitest'
import {
  draftFromSettings,
  draftToSettings,
  emptyDraft,
  mergeImported,
  placeServerIssues,
  serversOf
} from './mcp-model'

const everything = {
  name: 'everything',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  env: { LOG_LEVEL: 'debug' },
  env_passthrough: ['GITHUB_TOKEN'],
  force: { destructive: true }
}

describe('server drafts', () => {
  it('round-trips a configured server through the form, leaving defaults out of the file', () => {
    const draft = draftFromSettings(everything)
    expect(draft.args).toBe('-y\n@modelcontextprotocol/server-everything')
    expect(draft.env).toBe('LOG_LEVEL=debug')
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: everything })
  })

  it('keeps what the form does not show: the tools switched off and a sandboxed network', () => {
    const shown = { ...everything, sandbox: true }
    const saved = { ...shown, network: 'off', disabled_tools: ['slow_tool'] }
    const draft = draftFromSettings(saved)
    expect(draftToSettings(draft, [], saved)).toEqual({ ok: true, value: saved })
    // A new server has nothing to keep; a server made remote leaves a local program's network.
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: shown })
    const remote = { ...draft, kind: 'url' as const, url: 'https://mcp.example.com/mcp' }
    const made = draftToSettings(remote, [], saved)
    expect(made.ok && made.value).toMatchObject({ disabled_tools: ['slow_tool'] })
    expect(made.ok && 'network' in made.value).toBe(false)
  })

  it('round-trips a remote server: its address, transport, headers and bearer reference', () => {
    const remote = {
      name: 'linear',
      url: 'https://mcp.linear.app/mcp',
      transport: 'sse',
      headers: { 'X-Api-Key': '${secret:LINEAR}', 'X-Team': 'platform' },
      auth: { type: 'bearer', token: '${env:LINEAR_TOKEN}' }
    }
    const draft = draftFromSettings(remote)
    expect(draft).toMatchObject({
      kind: 'url',
      headers: 'X-Api-Key: ${secret:LINEAR}\nX-Team: platform'
    })
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: remote })
    // OAuth with a pre-registered client; no auth at all means "sign in if the server asks".
    const signed = {
      name: 'notion',
      url: 'https://mcp.notion.com/mcp',
      auth: {
        type: 'oauth',
        client_id: 'mecatl',
        client_secret: '${secret:NOTION}',
        scopes: ['read', 'write']
      }
    }
    expect(draftToSettings(draftFromSettings(signed), [])).toEqual({ ok: true, value: signed })
    // Or a client ID metadata document in place of a client id.
    const documented = {
      name: 'linear',
      url: 'https://mcp.linear.app/mcp',
      auth: { type: 'oauth', client_metadata_url: 'https://clients.example.org/mecatl.json' }
    }
    expect(draftToSettings(draftFromSettings(documented), [])).toEqual({
      ok: true,
      value: documented
    })
    const asked = { name: 'asked', url: 'https://mcp.example.com/mcp' }
    expect(draftFromSettings(asked).auth).toBe('auto')
    expect(draftToSettings(draftFromSettings(asked), [])).toEqual({ ok: true, value: asked })
    // Switching a draft to remote leaves the command's settings out of the file.
    const switched = {
      ...draftFromSettings(everything),
      kind: 'url' as const,
      url: 'https://x.example/mcp'
    }
    expect(draftToSettings(switched, [])).toEqual({
      ok: true,
      value: { name: 'everything', url: 'https://x.example/mcp', force: { destructive: true } }
    })
  })

  it('says beside the remote fields what is wrong: plain http, a secret in clear, a bad line', () => {
    const draft = {
      ...emptyDraft([]),
      kind: 'url' as const,
      url: 'http://mcp.example.com/mcp',
      headers: 'Authorization: Bearer sk-live-1\nnot a header',
      auth: 'bearer' as const,
      token: 'sk-live-2'
    }
    const result = draftToSettings(draft, [])
    if (result.ok) throw new Error('a bad draft was accepted')
    expect(result.issues.url).toContain('must use https')
    expect(result.issues.headers).toContain('line 2: write Name: value')
    expect(result.issues.auth).toContain('never written in clear')
    const fixed = draftToSettings({ ...draft, headers: 'Authorization: Bearer sk-live-1' }, [])
    if (fixed.ok) throw new Error('a secret in clear was accepted')
    expect(fixed.issues.headers).toContain(
      'Authorization: the header Authorization carries a credential'
    )
  })

  it('keeps lazy disclosure through the form', () => {
    const lazy = { ...everything, disclose: 'lazy' }
    const draft = draftFromSettings(lazy)
    expect(draft.lazyTools).toBe(true)
    expect(draftToSettings(draft, [])).toEqual({ ok: true, value: lazy })
  })

  it('puts problems beside their fields before anything is saved', () => {
    const draft = {
      ...emptyDraft([]),
      name: 'bad name',
      env: 'NO_EQUALS_SIGN',
      passthrough: 'HOME, LD_PRELOAD'
    }
    const result = draftToSettings(draft, [])
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.issues.name).toContain('letters, digits')
    expect(result.issues.command).toContain('give the program to run')
    expect(result.issues.env).toBe('line 1: write NAME=value')
    expect(result.issues.passthrough).toContain('LD_PRELOAD changes how programs load code')
  })

  it('refuses a name another server has', () => {
    const result = draftToSettings({ ...emptyDraft([]), name: 'everything', command: 'x' }, [
      'everything'
    ])
    expect(result).toMatchObject({ ok: false, issues: { name: expect.stringContaining('exists') } })
  })

  it('suggests a free name', () => {
    expect(emptyDraft(['server', 'server-2']).name).toBe('server-3')
  })
})

describe('server lists', () => {
  it('imports new servers and leaves alone the names already configured', () => {
    const merged = mergeImported(
      [everything],
      [
        { name: 'everything', command: 'evil' },
        { name: 'fs', command: 'npx' }
      ]
    )
    expect(merged.servers).toEqual([{ name: 'fs', command: 'npx' }])
    expect(merged).toMatchObject({ added: ['fs'], skipped: ['everything'], unread: [] })
  })

  it('says which imported servers it cannot read instead of adding them', () => {
    const merged = mergeImported([], [{ name: 'both', command: 'x', url: 'https://a.example' }])
    expect(merged.servers).toEqual([])
    expect(merged.unread).toEqual([expect.stringContaining('both (give either a command')])
  })

  it('lists every entry of the draft, one it cannot read too, so indexes stay the same', () => {
    expect(serversOf([everything, 'not a server']).map((s) => s.name)).toEqual([
      'everything',
      undefined
    ])
  })

  it('places save issues on the fields of the server being edited', () => {
    const issues = [
      { path: 'mcp.1.env_passthrough.0', message: 'refused' },
      { path: 'mcp.0.command', message: 'other server' }
    ]
    expect(placeServerIssues(issues, 1)).toEqual({ passthrough: 'refused' })
  })
})
