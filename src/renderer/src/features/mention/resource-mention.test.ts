import { describe, expect, it } from 'vitest'
import type { McpServerView, McpStatus } from '../../../../shared/mcp'
import { insertOpenMention, mentionAt, resourceMentionText } from './mention-text'
import {
  matchResources,
  resourceChoices,
  resourceRequest,
  serverEntries,
  serverMention
} from './resource-mention'

function server(name: string, state: McpServerView['state'], uris: string[]): McpServerView {
  return {
    name,
    state,
    resources: uris.map((uri) => ({
      uri,
      name: uri.replace(/^.*\/\//, ''),
      description: null,
      mimeType: 'text/plain'
    }))
  } as McpServerView
}

const status = {
  workspace: '/p',
  projectFile: null,
  issues: [],
  servers: [
    server('docs', 'ready', ['note://hello', 'note://todo', 'file:///Guide.md']),
    server('down', 'failed', ['note://lost']),
    server('tools', 'ready', [])
  ]
} as McpStatus
const names = status.servers.map((s) => s.name)
const choices = resourceChoices(status)

describe('`@server:` in the message box', () => {
  it('is read from the query when a configured server is named before the colon', () => {
    expect(serverMention('docs:', names)).toEqual({ server: 'docs', filter: '' })
    expect(serverMention('docs:to', names)).toEqual({ server: 'docs', filter: 'to' })
    // The filter keeps its own colons: URIs have them.
    expect(serverMention('docs:note://h', names)).toEqual({ server: 'docs', filter: 'note://h' })
    expect(mentionAt('see @docs:no', 12)?.query).toBe('docs:no')
  })

  it('is a file mention when no server of that name is configured, or nothing precedes the colon', () => {
    expect(serverMention('src/a.ts', names)).toBeNull()
    expect(serverMention('C:/work', names)).toBeNull()
    expect(serverMention(':docs', names)).toBeNull()
    expect(serverMention('Docs:', names)).toBeNull()
    expect(serverMention('docs', names)).toBeNull()
  })

  it('lists only ready servers’ resources, filtered by URI or name in any case', () => {
    expect(choices.map((c) => `${c.server} ${c.uri}`)).toEqual([
      'docs note://hello',
      'docs note://todo',
      'docs file:///Guide.md'
    ])
    const uris = (query: string): string[] =>
      matchResources(choices, serverMention(query, names) ?? { server: '', filter: '' }).map(
        (c) => c.uri
      )
    expect(uris('docs:')).toHaveLength(3)
    expect(uris('docs:TODO')).toEqual(['note://todo'])
    expect(uris('docs:guide')).toEqual(['file:///Guide.md'])
    expect(uris('down:')).toEqual([])
    expect(uris('tools:')).toEqual([])
  })

  it('offers the servers with resources under a plain `@`, by what the name starts with', () => {
    expect(serverEntries(choices, '')).toEqual(['docs'])
    expect(serverEntries(choices, 'do')).toEqual(['docs'])
    expect(serverEntries(choices, 'x')).toEqual([])
  })

  it('writes `@docs:` to go on typing, and `@docs:uri` with a space for a picked resource', () => {
    const range = mentionAt('read @do now', 8)
    expect(range).not.toBeNull()
    if (!range) return
    expect(insertOpenMention('read @do now', range, '@docs:')).toEqual({
      text: 'read @docs: now',
      caret: 11
    })
    expect(resourceMentionText('docs', 'note://hello')).toBe('@docs:note://hello')
    expect(resourceMentionText('docs', 'note://"x"')).toBe('@"docs:note://\\"x\\""')
    const [hello] = choices
    if (!hello) return
    expect(resourceRequest(hello)).toEqual({
      kind: 'resource',
      server: 'docs',
      uri: 'note://hello',
      name: 'hello'
    })
  })
})
