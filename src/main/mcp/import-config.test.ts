import { describe, expect, it } from 'vitest'
import { mcpServerSettingsSchema } from '../../shared/mcp'
import { importMcpServers } from './import-config'

const claudeDesktop = JSON.stringify({
  mcpServers: {
    filesystem: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop']
    },
    'github server': {
      command: 'docker',
      args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_secret', LOG_LEVEL: 'debug' }
    },
    remote: { type: 'http', url: 'https://mcp.example.com/mcp' }
  }
})

describe('importMcpServers', () => {
  it('reads stdio and remote servers into valid settings and says what it changed', () => {
    const { servers, notes } = importMcpServers(claudeDesktop, 'claude_desktop_config.json')
    expect(servers.map((s) => s.name)).toEqual(['filesystem', 'github-server', 'remote'])
    for (const server of servers)
      expect(mcpServerSettingsSchema.safeParse(server).success).toBe(true)
    expect(servers[0]).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop']
    })
    expect(servers[2]).toEqual({
      name: 'remote',
      url: 'https://mcp.example.com/mcp',
      transport: 'http'
    })
    expect(notes.join('\n')).toContain('renamed "github-server"')
  })

  it('never writes a secret-looking value into settings: it becomes a passthrough name', () => {
    const { servers, notes } = importMcpServers(claudeDesktop, 'x')
    expect(servers[1]).toMatchObject({
      env: { LOG_LEVEL: 'debug' },
      env_passthrough: ['GITHUB_PERSONAL_ACCESS_TOKEN']
    })
    expect(JSON.stringify(servers)).not.toContain('ghp_secret')
    expect(notes.join('\n')).toContain('set GITHUB_PERSONAL_ACCESS_TOKEN in the environment')
  })

  it('takes remote servers with their headers, secrets as references to variables', () => {
    const mcpJson = JSON.stringify({
      mcpServers: {
        linear: { type: 'sse', url: 'https://mcp.linear.app/sse' },
        github: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: { Authorization: 'Bearer ${GITHUB_TOKEN}', 'X-Toolsets': 'repos' }
        },
        pasted: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer sk-live-very-secret' }
        },
        plain: { type: 'http', url: 'http://mcp.example.com/mcp' },
        odd: { type: 'websocket', url: 'https://mcp.example.com/ws' }
      }
    })
    const { servers, notes } = importMcpServers(mcpJson, '.mcp.json')
    for (const server of servers) {
      expect(mcpServerSettingsSchema.safeParse(server).success, server.name).toBe(true)
    }
    expect(servers).toEqual([
      { name: 'linear', url: 'https://mcp.linear.app/sse', transport: 'sse' },
      {
        name: 'github',
        url: 'https://api.githubcopilot.com/mcp/',
        transport: 'http',
        headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}', 'X-Toolsets': 'repos' }
      },
      {
        name: 'pasted',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: '${env:PASTED_AUTHORIZATION}' }
      }
    ])
    expect(JSON.stringify(servers)).not.toContain('sk-live-very-secret')
    const said = notes.join('\n')
    expect(said).toContain('set PASTED_AUTHORIZATION in the environment')
    expect(said).toContain('"plain" was skipped: its url http://mcp.example.com/mcp must use https')
    expect(said).toContain('"odd" was skipped: its type "websocket" is not http or sse')
  })

  it('says what is wrong with text that is not a config', () => {
    expect(() => importMcpServers('{nope', 'the pasted text')).toThrow(/not valid JSON/)
    expect(() => importMcpServers('{"servers": 3}', '.mcp.json')).toThrow(/no "mcpServers" object/)
  })
})
