import { mcpProblems } from '../../mcp/cli-report'
import { describeSandbox } from '../../sandbox/sandbox-service'
import type { CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'

/** `tools`: what the model is given, as a table, as JSON, or as the exact schemas sent. */
export async function toolsCommand(args: CliArgs): Promise<number> {
  // MCP servers start in the project folder: --workspace, or where the command runs.
  const workspace = args.workspace ? requireWorkspace(args) : process.cwd()
  const core = await cliCore(args, { host: 'cli', interactive: false, workspace })
  const catalog = await core.catalogFor(workspace)
  const status = await core.mcp.status(workspace, true)
  for (const line of mcpProblems(status)) console.error(line)
  const settings = (await core.settings.get()).settings
  if (catalog.get('Shell')) {
    console.error(`Shell: ${describeSandbox(await core.sandbox.prepare(settings))}`)
  }
  if (args.schema) {
    console.log(JSON.stringify(catalog.modelSchemas(), null, 2))
  } else if (args.json) {
    console.log(JSON.stringify(catalog.describe(), null, 2))
  } else {
    const width = Math.max(12, ...catalog.list().map((tool) => tool.name.length))
    for (const tool of catalog.describe()) {
      const c = tool.capabilities
      const flags = [
        tool.readOnly ? 'read-only' : 'mutating',
        c.privateData ? 'private' : null,
        c.untrustedInput ? 'untrusted' : null,
        c.egress !== 'none' ? `egress:${c.egress}` : null,
        c.destructive ? 'destructive' : null
      ].filter(Boolean)
      console.log(`${tool.name.padEnd(width)} ${flags.join(', ').padEnd(40)} ${tool.source}`)
    }
  }
  await core.dispose()
  return 0
}
