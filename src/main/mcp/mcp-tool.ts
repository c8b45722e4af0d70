import type { CallToolResult, Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js'
import type { ContentBlock, ToolDisplay } from '../../shared/domain'
import type { McpForce } from '../../shared/mcp'
import type { Tool, ToolOutput } from '../tools/tool'
import { plainPresentation } from '../tools/tool-presentation'
import { capabilitiesFromHints } from './annotations'
import { mcpInputSchema } from './input-schema'

/** One progress report of a running call, as its server sent it. */
export interface McpProgress {
  progress: number
  /** null when the server does not say how much there is. */
  total: number | null
  message: string | null
}

/** Where an MCP tool's calls go: the supervisor of its server. */
export interface McpCallTarget {
  readonly name: string
  /**
   * `external`: the tool reaches outside this machine, so its result is marked so. With
   * `onProgress`, the server is asked for progress reports and each one is passed on.
   */
  call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    external: boolean,
    onProgress?: (progress: McpProgress) => void
  ): Promise<ToolOutput>
}

/** The card is repainted at most this often however fast a server reports progress. */
export const PROGRESS_REPAINT_MS = 200

// Providers accept tool names of letters, digits, "_" and "-", at most 64 long.
const MAX_NAME = 64

/** The name a server's tool is registered under: `mcp__<server>__<tool>`, or the raw name. */
export function registeredToolName(server: string, raw: string, prefix: boolean): string {
  const safe = raw.replace(/[^A-Za-z0-9_-]/g, '_')
  return (prefix ? `mcp__${server}__${safe}` : safe).slice(0, MAX_NAME)
}

/** One tool of an MCP server, as an ordinary catalog tool with source `mcp:<server>`. */
export function mcpTool(
  target: McpCallTarget,
  tool: SdkTool,
  name: string,
  options: { force: McpForce; disclosable?: boolean; remote?: boolean }
): Tool {
  const { force, disclosable = false, remote = false } = options
  const mapped = capabilitiesFromHints(tool.annotations, force, remote)
  const description = tool.description ?? tool.title ?? tool.annotations?.title ?? ''
  const input = mcpInputSchema(tool.inputSchema)
  return {
    name,
    description: description || `The ${tool.name} tool of the MCP server ${target.name}.`,
    inputSchema: input.schema,
    readOnly: mapped.readOnly,
    capabilities: mapped.capabilities,
    source: `mcp:${target.name}`,
    // What a server's tool reads is its own business: its annotations say whether it reaches the
    // outside world (capabilities), not whether it shows this folder, and it is never the
    // built-ins' folder or memory. A no-fs session keeps MCP tools.
    folderContent: false,
    needsFolder: false,
    defaultDecision: null,
    presentation: plainPresentation(name, mapped.readOnly ? 'nothing' : 'other'),
    disclosable,
    call: async (value, ctx) => {
      if (input.unusable) return unusableSchema(target.name, tool.name, input.unusable)
      const args = value && typeof value === 'object' ? (value as Record<string, unknown>) : {}
      const shown = ctx.progress
      if (!shown)
        return target.call(tool.name, args, ctx.signal, mapped.capabilities.untrustedInput)
      const reporter = throttledProgress(shown, PROGRESS_REPAINT_MS)
      try {
        return await target.call(
          tool.name,
          args,
          ctx.signal,
          mapped.capabilities.untrustedInput,
          reporter.report
        )
      } finally {
        reporter.stop()
      }
    }
  }
}

/** The answer to every call of a tool whose input schema cannot be used; nothing is sent. */
function unusableSchema(server: string, tool: string, why: string): ToolOutput {
  const text = `The input schema the MCP server "${server}" gives its tool "${tool}" cannot be used: ${why}. The call was not sent; the tool cannot be called until the server's schema is fixed, and the server's other tools work as usual.`
  return { content: [{ type: 'text', text }], isError: true, external: false }
}

/**
 * Passes progress to the card at most once per `interval`, the newest report winning: a server
 * may send thousands, and each repaint is an event to every window. The last report of a burst
 * is shown once the interval is over; nothing is shown after stop().
 */
export function throttledProgress(
  show: (display: ToolDisplay) => void,
  interval: number
): { report: (progress: McpProgress) => void; stop: () => void } {
  let last = -Infinity
  let waiting: McpProgress | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  const flush = (): void => {
    timer = null
    if (!waiting) return
    last = Date.now()
    show({ kind: 'progress', ...waiting })
    waiting = null
  }
  return {
    report: (progress) => {
      waiting = progress
      if (timer) return
      const wait = last + interval - Date.now()
      if (wait <= 0) flush()
      else timer = setTimeout(flush, wait)
    },
    stop: () => {
      if (timer) clearTimeout(timer)
      timer = null
      waiting = null
    }
  }
}

/**
 * A tool result in our terms. Text and images pass as they are; audio, links and embedded
 * resources are described in text. `external` when the tool reaches outside this machine.
 */
export function toToolOutput(result: CallToolResult, external: boolean): ToolOutput {
  const content: ContentBlock[] = []
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'text', text: block.text })
        break
      case 'image':
        content.push({ type: 'image', mediaType: block.mimeType, data: block.data })
        break
      case 'audio':
        content.push({
          type: 'text',
          text: `[audio ${block.mimeType}, ${base64Bytes(block.data)}]`
        })
        break
      case 'resource_link':
        content.push({
          type: 'text',
          text: `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}${block.mimeType ? `, ${block.mimeType}` : ''}]`
        })
        break
      case 'resource': {
        const resource = block.resource
        const mime = resource.mimeType ? `, ${resource.mimeType}` : ''
        if ('text' in resource && typeof resource.text === 'string') {
          content.push({
            type: 'text',
            text: `[resource ${resource.uri}${mime}]\n${resource.text}`
          })
        } else if ('blob' in resource && typeof resource.blob === 'string') {
          content.push({
            type: 'text',
            text: `[resource ${resource.uri}${mime}, ${base64Bytes(resource.blob)} of binary data]`
          })
        }
        break
      }
    }
  }
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) })
  }
  if (content.length === 0) content.push({ type: 'text', text: '(the tool returned nothing)' })
  return { content, isError: result.isError === true, external }
}

function base64Bytes(data: string): string {
  const bytes =
    Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0)
  return `${bytes} bytes`
}
