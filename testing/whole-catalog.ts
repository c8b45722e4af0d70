// The whole catalog of tools, as the core builds it with every family on, for tests that walk
// every tool: imported only by tests.
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js'
import { mcpTool } from '../src/main/mcp/mcp-tool'
import { toolSearchTool } from '../src/main/tools/discovery/tool-search'
import { textOutput, type Tool } from '../src/main/tools/tool'
import { startCoreHarness, type CoreHarness, type CoreHarnessOptions } from './core-harness'

/** One MCP server's tool, as a connection registers it; its calls answer "called". */
export function mcpStandIn(name: string, annotations: SdkTool['annotations'] = {}): Tool {
  const target = { name: 'stand-in', call: async () => textOutput('called') }
  const declared: SdkTool = { name, inputSchema: { type: 'object' }, annotations }
  return mcpTool(target, declared, `mcp__stand-in__${name}`, { force: {} })
}

export interface WholeCatalog {
  harness: CoreHarness
  /** Every tool a session of the harness's folder may be given, ToolSearch and MCP included. */
  tools: Tool[]
}

/**
 * Every tool there is: the built-ins as createCore builds them for a folder (every family on, a
 * skill in the folder, a sub-agent profile, a person to ask), ToolSearch (which a turn adds when
 * some tools are held back) and two MCP stand-ins, one read-only and one not. Must be called
 * inside a test (the harness is removed when it finishes).
 */
export async function wholeCatalog(
  options: Pick<CoreHarnessOptions, 'permissions'> = {}
): Promise<WholeCatalog> {
  const harness = await startCoreHarness({
    ...options,
    name: 'catalog',
    settings: { subagents: [{ name: 'scout', description: 'Looks around.', tools: ['Read'] }] },
    core: { interactive: true }
  })
  const skill = path.join(harness.workspace, '.mecatl', 'skills', 'greet')
  await mkdir(skill, { recursive: true })
  await writeFile(
    path.join(skill, 'SKILL.md'),
    '---\nname: greet\ndescription: Greets.\n---\nSay hello.\n'
  )
  const catalog = await harness.core.catalogFor(harness.workspace)
  const tools = [
    ...catalog.list(),
    toolSearchTool({ candidates: () => [], disclosed: new Set() }),
    mcpStandIn('look', { readOnlyHint: true }),
    mcpStandIn('change')
  ]
  return { harness, tools }
}

/** The tool of that name in `tools`; a test fails at once when it is missing. */
export function named(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name)
  if (!tool) throw new Error(`no tool named ${name} in the catalog`)
  return tool
}
