import { ErrorCode, McpError, type Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js'
import type { McpServerSettings, McpServerView } from '../../shared/mcp'
import type { Tool } from '../tools/tool'
import { REQUEST_TIMEOUT_MS } from './mcp-connection'
import { mcpTool, registeredToolName, type McpCallTarget } from './mcp-tool'

/** A server's list as catalog tools (see catalogTools). */
export interface CatalogTools {
  tools: Tool[]
  /** Each registered tool's name at the server (see McpServerView.toolNames). */
  ownNames: Map<string, string>
  /** Tools skipped because another of the same server took their name first. */
  skipped: string[]
  /** A raw-named tool (`prefix_tools: false`) would take a name already registered. */
  clash: { clash: string; fix: string } | null
}

/**
 * The catalog tools of a server's list: switched-off tools (`disabled_tools`) left out, so never
 * offered nor callable; names prefixed unless the settings say not, and a raw name that another
 * tool already has refused, since a tool is never shadowed.
 */
export function catalogTools(
  target: McpCallTarget,
  listed: readonly SdkTool[],
  s: McpServerSettings,
  taken: ReadonlyMap<string, string>
): CatalogTools {
  const tools: Tool[] = []
  const ownNames = new Map<string, string>()
  const skipped: string[] = []
  for (const tool of listed) {
    if (s.disabled_tools.includes(tool.name)) continue
    const name = registeredToolName(s.name, tool.name, s.prefix_tools)
    const holder = s.prefix_tools ? undefined : taken.get(name)
    if (holder !== undefined) {
      const clash = `its tool "${name}" has the name of ${holder}, and a tool is never shadowed`
      const fix = `set prefix_tools: true for "${s.name}" so its tools are named mcp__${s.name}__<tool>`
      return { tools: [], ownNames: new Map(), skipped, clash: { clash, fix } }
    }
    if (ownNames.has(name)) {
      skipped.push(`${name} (${tool.name})`)
      continue
    }
    ownNames.set(name, tool.name)
    const options = {
      force: s.force,
      disclosable: s.disclose === 'lazy',
      remote: s.url !== undefined
    }
    tools.push(mcpTool(target, tool, name, options))
  }
  return { tools, ownNames, skipped, clash: null }
}

/** The tools of a server's list that its settings switch off, as its view lists them. */
export function offTools(
  listed: readonly SdkTool[],
  s: McpServerSettings
): McpServerView['offTools'] {
  return listed
    .filter((tool) => s.disabled_tools.includes(tool.name))
    .map((tool) => ({ name: tool.name, description: tool.description ?? tool.title ?? '' }))
}

/** Why a call to `server` failed, in words the model can act on. */
export function describeCallError(server: string, error: unknown): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `the server "${server}" did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return `the server "${server}" went away during the call (${error.message}); it is being restarted, so the call can be tried again shortly.`
  }
  return error instanceof Error ? error.message : String(error)
}
