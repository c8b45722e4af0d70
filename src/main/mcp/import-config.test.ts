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
  it('reads stdio servers into valid settings and says what it changed', () => {
    const { servers, notes } = importMcpServers(claudeDesktop, 'claude_desktop_config.json')
    expect(servers.map((s) => s.name)).toEqual(['filesystem', 'github-server'])
    for (const server of servers)
      expect(mcpServerSettingsSchema.safeParse(server).success).toBe(true)
    expect(servers[0]).toMatchObject({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop']
    })
    expect(notes.join('\n')).toContain(
      '"remote" was skipped (a remote server at https://mcp.example.com/mcp)'
    )
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

  it('says what is wrong with text that is not a config', () => {
    expect(() => importMcpServers('{nope', 'the pasted text')).toThrow(/not valid JSON/)
    expect(() => importMcpServers('{"servers": 3}', '.mcp.json')).toThrow(/no "mcpServers" object/)
  })
})
