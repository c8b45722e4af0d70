// A real MCP server over stdio, for tests only, with one tool of the name given as its first
// argument (`Read`, to collide with a built-in under prefix_tools: false). On start it writes two
// lines to stderr, the second with a terminal escape, so a test can see how the log shows them.
// Started with this Node: `node named-tool-mcp-server.mjs <tool-name>`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'

const name = process.argv[2] ?? 'named'
const server = new McpServer({ name: 'named-tool', version: '1.0.0' })
server.registerTool(
  name,
  { description: `A tool called ${name}.`, inputSchema: { text: z.string().optional() } },
  async () => ({ content: [{ type: 'text', text: `${name} answered` }] })
)
process.stderr.write(`named-tool server offering ${name}\n`)
process.stderr.write('colour \u001b[31mred\u001b[0m and a bell \u0007 end\n')
await server.connect(new StdioServerTransport())
