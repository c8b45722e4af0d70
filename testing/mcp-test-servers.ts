// The real MCP servers from npm the tests run (devDependencies, started with this node).
import path from 'node:path'
import type { McpServerSettingsInput } from '../src/shared/mcp'

const modules = path.resolve(__dirname, '../node_modules/@modelcontextprotocol')

/** server-everything over stdio, named `name`. */
export function everythingServer(
  name = 'everything',
  extra: Partial<McpServerSettingsInput> = {}
): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.join(modules, 'server-everything/dist/index.js'), 'stdio'],
    ...extra
  }
}

/** server-filesystem allowed into `folder` only. */
export function filesystemServer(
  folder: string,
  name = 'filesystem',
  extra: Partial<McpServerSettingsInput> = {}
): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.join(modules, 'server-filesystem/dist/index.js'), folder],
    ...extra
  }
}

/** A small real server whose `lookup` tool has no annotations (see hintless-mcp-server.mjs). */
export function hintlessServer(
  name = 'hintless',
  extra: Partial<McpServerSettingsInput> = {}
): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.resolve(__dirname, 'hintless-mcp-server.mjs')],
    ...extra
  }
}

/** A small real server with one tool named `tool` (see named-tool-mcp-server.mjs). */
export function namedToolServer(
  name: string,
  tool: string,
  extra: Partial<McpServerSettingsInput> = {}
): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.resolve(__dirname, 'named-tool-mcp-server.mjs'), tool],
    ...extra
  }
}

/** A small real server that outlives its closed stdin, recording what ended it in `log`. */
export function stubbornServer(log: string, name = 'stubborn'): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.resolve(__dirname, 'stubborn-mcp-server.mjs'), log]
  }
}

/**
 * A small real server whose `spawn` tool leaves three processes behind, each escaping it its own
 * way, and says where they are (see spawning-mcp-server.mjs); their records go under `folder`.
 */
export function spawningServer(
  folder: string,
  name = 'spawning',
  extra: Partial<McpServerSettingsInput> = {}
): McpServerSettingsInput {
  return {
    name,
    command: process.execPath,
    args: [path.resolve(__dirname, 'spawning-mcp-server.mjs'), folder],
    ...extra
  }
}
