// A Mecatl that runs one MCP server, for tests only: the real WorkspaceServers (and, for a server
// with `sandbox: true`, the real SandboxService), from the TypeScript source loaded through
// Vite's module runner. Started with this Node from the repository's root:
//   node mcp-owner.mjs serve <dataDir> <workspace> <settings JSON> [--no-pid-namespace]
// calls the server's `spawn` tool, prints its answer as one line, then waits for its SIGKILL,
// or, given `stop` on its stdin, stops the server and prints `stopped`.
//   node mcp-owner.mjs sweep
// runs the sweep a Mecatl runs at start (orphan-sweep.ts) and prints what it killed.
// The settings JSON is a settings file's content (its `mcp` has the one server).
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createServer } from 'vite'

const source = (file) => fileURLToPath(new URL(file, import.meta.url))
// A module runner kept open for the process's life (not `runnerImport`, which closes it once the
// import returns): WorkspaceServers loads its supervisor, and with it the MCP SDK, on first use.
const vite = await createServer({
  configFile: false,
  root: fileURLToPath(new URL('..', import.meta.url)),
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false, watch: null }
})
const load = (file) => vite.ssrLoadModule(source(file))
const [mode, dataDir, workspace, settingsJson, ...flags] = process.argv.slice(2)

if (mode === 'sweep') {
  const { sweepOrphanedJobs } = await load('../src/main/jobs/orphan-sweep.ts')
  process.stdout.write(`${JSON.stringify(await sweepOrphanedJobs())}\n`)
  process.exit(0)
}

const { settingsSchema } = await load('../src/shared/settings.ts')
const { WorkspaceServers } = await load('../src/main/mcp/workspace-servers.ts')
const { SandboxService } = await load('../src/main/sandbox/sandbox-service.ts')
const settings = settingsSchema.parse(JSON.parse(settingsJson))
const [server] = settings.mcp
const sandbox = new SandboxService({ dataDir, env: process.env, home: process.env.HOME })
const servers = new WorkspaceServers(
  workspace,
  {
    cwd: workspace,
    appEnv: process.env,
    secrets: { env: process.env },
    startupTimeoutMs: 30_000,
    sandbox: { wrap: (wanted, cwd) => sandbox.confineServer(settings, wanted, cwd) },
    pidNamespace: !flags.includes('--no-pid-namespace'),
    backoff: { initialMs: 50, maxMs: 200, maxAttempts: 0, stableMs: 60_000 }
  },
  () => new Set(),
  () => undefined
)
await servers.reconcile([
  { resolved: { settings: server, origin: 'user' }, initial: 'run', timeZone: 'UTC' }
])
await servers.settled()
const supervisor = servers.get(server.name)
if (supervisor?.state !== 'ready') {
  process.stderr.write(`the server is ${supervisor?.state}: ${supervisor?.error}\n`)
  process.exit(1)
}
const output = await supervisor.call('spawn', {}, new AbortController().signal, false)
process.stdout.write(`${output.content.map((c) => c.text ?? '').join('')}\n`)
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'stop') continue
  await servers.dispose()
  await sandbox.dispose()
  process.stdout.write('stopped\n')
  process.exit(0)
}
setInterval(() => undefined, 60_000)
