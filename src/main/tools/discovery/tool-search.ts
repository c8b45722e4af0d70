import picomatch from 'picomatch'
import { z } from 'zod'
import { folderlessReadOnlyTool, noCapabilities, textOutput, type Tool } from '../tool'
import { plainPresentation } from '../tool-presentation'

export const TOOL_SEARCH = 'ToolSearch'

const DEFAULT_LIMIT = 5
const MAX_LIMIT = 20
const SUMMARY_LENGTH = 160

/**
 * Which tools of a session are held back until the model looks for them: those an MCP server
 * marks `disclose: lazy`, and those named (or globbed) by the `disclosable_tools` setting.
 */
export function disclosurePolicy(patterns: readonly string[] = []): (tool: Tool) => boolean {
  const matches = patterns.length > 0 ? picomatch([...patterns]) : null
  return (tool) =>
    tool.name !== TOOL_SEARCH && (tool.disclosable === true || (matches?.(tool.name) ?? false))
}

export interface ToolSearchDeps {
  /** Every tool of the session that is held back, found or not yet. */
  candidates: () => readonly Tool[]
  /** The session's found tools; ToolSearch adds its matches here. */
  disclosed: Set<string>
}

/**
 * Keyword search over the held-back tools' names and descriptions. What it finds is added to the
 * session, so the model is sent it from its next request on (and the list stays sorted).
 */
export function toolSearchTool(deps: ToolSearchDeps): Tool {
  return folderlessReadOnlyTool({
    name: TOOL_SEARCH,
    description:
      'Find tools that are available but not yet loaded, by keywords over their names and descriptions (e.g. "github issue", "echo"). Matching tools are added to your tool list from your next step; call them then by their exact names.',
    inputSchema: z
      .object({
        query: z.string().min(1).describe('Words to look for in tool names and descriptions'),
        limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe('At most this many')
      })
      .strict(),
    capabilities: noCapabilities,
    presentation: plainPresentation(TOOL_SEARCH, 'nothing'),
    call: async ({ query, limit }) => {
      const candidates = deps.candidates()
      const found = searchTools(candidates, query).slice(0, limit ?? DEFAULT_LIMIT)
      if (found.length === 0) {
        const hidden = candidates.filter((t) => !deps.disclosed.has(t.name)).length
        return textOutput(
          `No tool matched "${query}" (${hidden} tools are still unloaded). Try other words: a service name, a verb such as "create" or "list", or a noun such as "issue".`
        )
      }
      const added = found.filter((tool) => !deps.disclosed.has(tool.name))
      for (const tool of found) deps.disclosed.add(tool.name)
      const lines = found.map((tool) => `- ${tool.name}: ${summary(tool.description)}`)
      const note =
        added.length > 0
          ? `Loaded ${added.length} tool${added.length === 1 ? '' : 's'}; call ${added.length === 1 ? 'it' : 'them'} from your next step by the exact name.`
          : 'These tools were already loaded.'
      return textOutput(`${note}\n${lines.join('\n')}`)
    }
  })
}

/** Tools ranked by how many query words their name (worth more) and description contain. */
export function searchTools(tools: readonly Tool[], query: string): Tool[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
  if (words.length === 0) return []
  const scored = tools.map((tool) => {
    const name = tool.name.toLowerCase()
    const description = tool.description.toLowerCase()
    let score = 0
    for (const word of words) {
      if (name.includes(word)) score += 3
      if (description.includes(word)) score += 1
    }
    return { tool, score }
  })
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1))
    .map((s) => s.tool)
}

function summary(description: string): string {
  const line = description.trim().split('\n')[0] ?? ''
  return line.length > SUMMARY_LENGTH ? `${line.slice(0, SUMMARY_LENGTH - 1)}…` : line
}
