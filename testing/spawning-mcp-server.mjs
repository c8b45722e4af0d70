// A real MCP server over stdio, for tests only, that leaves processes behind: its tool `spawn`
// starts three that each escape it a different way, then answers with where they all are.
//   setsid:     a new session and process group (`setsid sleep`), nothing shared with the server;
//   doubleFork: started through a subshell that exits at once, so it is nobody's child, and it
//               holds the server's stdout and stderr open;
//   deaf:       ignores SIGTERM and SIGHUP.
// Each writes `<pid> <pid namespace> <start time>` (its pid as its own namespace counts it, and
// when it started, so a reused pid is not taken for it) to a file in a new folder under the one
// named by the first argument, then becomes `sleep 1000`. The answer is those three records and
// the server's own, as JSON.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, readlinkSync } from 'node:fs'
import path from 'node:path'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'

const base = process.argv[2]
// `$0` is the record's file; the fields of /proc/<pid>/stat after `set --` are $1…, the start
// time the 22nd. Written whole, then renamed, so a reader never sees half a record.
const record =
  'read -r stat < /proc/$$/stat; set -- $stat; ' +
  'echo "$$ $(readlink /proc/$$/ns/pid) ${22}" > "$0.tmp" && mv "$0.tmp" "$0"'

function spawnLeftovers(folder) {
  const file = (kind) => path.join(folder, kind)
  spawn('setsid', ['sh', '-c', `${record}; exec sleep 1000`, file('setsid')], { stdio: 'ignore' })
  spawn(
    'sh',
    ['-c', '(sh -c "$1" "$2" &); exit 0', 'sh', `${record}; exec sleep 1000`, file('doubleFork')],
    {
      stdio: ['ignore', 'inherit', 'inherit']
    }
  )
  spawn('sh', ['-c', `trap '' TERM HUP; ${record}; exec sleep 1000`, file('deaf')], {
    stdio: 'ignore'
  })
}

function self() {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  return `${process.pid} ${readlinkSync('/proc/self/ns/pid')} ${start}`
}

const server = new McpServer({ name: 'spawning', version: '1.0.0' })
server.registerTool('spawn', { description: 'Leaves three processes behind.' }, async () => {
  const folder = mkdtempSync(path.join(base, 'leftovers-'))
  spawnLeftovers(folder)
  const kinds = ['setsid', 'doubleFork', 'deaf']
  for (let i = 0; i < 1000 && !kinds.every((kind) => existsSync(path.join(folder, kind))); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const records = { server: self() }
  for (const kind of kinds) {
    records[kind] = existsSync(path.join(folder, kind))
      ? readFileSync(path.join(folder, kind), 'utf8').trim()
      : null
  }
  return { content: [{ type: 'text', text: JSON.stringify(records) }] }
})
await server.connect(new StdioServerTransport())
