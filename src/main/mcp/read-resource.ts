import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js'
import type { McpResource } from '../../shared/mcp'

/** A resource read from a server for a message, and the server's listing entry for it. */
export interface ReadResource {
  /** How the server lists the resource; null for a URI it does not list (a template's). */
  listed: McpResource | null
  contents: ReadResourceResult['contents']
}
