import { describe, expect, it } from 'vitest'
import { displayToolName } from './tool-name'

describe('displayToolName', () => {
  it('reads an MCP tool as its server and its tool', () => {
    expect(displayToolName('mcp__everything__echo')).toBe('everything › echo')
    expect(displayToolName('mcp__everything__gzip-file-as-resource')).toBe(
      'everything › gzip-file-as-resource'
    )
  })

  it('keeps underscores inside the tool name, splitting at the first separator', () => {
    expect(displayToolName('mcp__github__list__pull_requests')).toBe('github › list__pull_requests')
  })

  it('leaves built-in tools and malformed prefixes as they are', () => {
    expect(displayToolName('Read')).toBe('Read')
    expect(displayToolName('mcp__')).toBe('mcp__')
    expect(displayToolName('mcp__server')).toBe('mcp__server')
    expect(displayToolName('mcp____echo')).toBe('mcp____echo')
    expect(displayToolName('mcp__srv__')).toBe('mcp__srv__')
    expect(displayToolName('MCP__a__b')).toBe('MCP__a__b')
  })
})
