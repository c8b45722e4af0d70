// A real MCP server over stdio, for tests only, that keeps running after its stdin closes (a
// timer holds it, as in many servers) and writes what ended it to the file named by its first
// argument: `stdin ended`, then `SIGTERM` when that is what stops it.
import { appendFileSync } from 'node:fs'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

const record = (what) => appendFileSync(process.argv[2], `${what}\n`)
const server = new McpServer({ name: 'stubborn', version: '1.0.0' })
server.registerTool('ping', { description: 'Answers pong.' }, async () => ({
  content: [{ type: 'text', text: 'pong' }]
}))
setInterval(() => undefined, 60_000)
process.stdin.on('end', () => record('stdin ended'))
process.on('SIGTERM', () => {
  record('SIGTERM')
  process.exit(0)
})
await server.connect(new StdioServerTransport())
