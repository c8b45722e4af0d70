import type { CliArgs } from '../args'
import { cliCore } from '../context'

/** `tools`: what the model is given, as a table, as JSON, or as the exact schemas sent. */
export async function toolsCommand(args: CliArgs): Promise<number> {
  const core = await cliCore(args, { host: 'cli', interactive: false })
  if (args.schema) {
    console.log(JSON.stringify(core.catalog.modelSchemas(), null, 2))
  } else if (args.json) {
    console.log(JSON.stringify(core.catalog.describe(), null, 2))
  } else {
    for (const tool of core.catalog.describe()) {
      const c = tool.capabilities
      const flags = [
        tool.readOnly ? 'read-only' : 'mutating',
        c.privateData ? 'private' : null,
        c.untrustedInput ? 'untrusted' : null,
        c.egress !== 'none' ? `egress:${c.egress}` : null,
        c.destructive ? 'destructive' : null
      ].filter(Boolean)
      console.log(`${tool.name.padEnd(12)} ${flags.join(', ').padEnd(40)} ${tool.source}`)
    }
  }
  await core.dispose()
  return 0
}
