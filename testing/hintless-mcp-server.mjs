// A real MCP server over stdio, for tests only, whose tools carry no annotations at all (as many
// small servers do): `lookup` answers from a local table, `open_world` is annotated open-world so
// a test can tell the two apart. Started with this Node: `node hintless-mcp-server.mjs`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const server = new McpServer({ name: 'hintless', version: '1.0.0' })
server.registerTool(
  'lookup',
  { description: 'Looks a word up in a local table.', inputSchema: { word: z.string() } },
  async ({ word }) => ({ content: [{ type: 'text', text: `${word}: a local entry` }] })
)
server.registerTool(
  'open_world',
  {
    description: 'Fetches something from the internet (pretend).',
    inputSchema: { query: z.string() },
    annotations: { openWorldHint: true, readOnlyHint: true }
  },
  async ({ query }) => ({ content: [{ type: 'text', text: `results for ${query}` }] })
)
await server.connect(new StdioServerTransport())
