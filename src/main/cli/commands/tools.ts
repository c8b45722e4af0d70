import { mcpProblems } from '../../mcp/cli-report'
import { describeSandbox } from '../../sandbox/sandbox-status'
import type { ToolDescriptor } from '../../../shared/domain'
import type { CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'
import { requireDistinctToolNames } from '../mcp-collisions'
import { printError, printJson, printLine } from '../print'

/** How long a description may run on a line of the table before it is cut. */
const DESCRIPTION_CHARS = 100

/**
 * `tools`: what the model is given, as a table (each tool's one-line description, and where
 * Shell runs), as JSON, or as the exact schemas sent.
 */
export async function toolsCommand(args: CliArgs): Promise<number> {
  // MCP servers start in the project folder: --workspace, or where the command runs.
  const workspace = args.workspace ? requireWorkspace(args) : process.cwd()
  const core = await cliCore(args, { host: 'cli', interactive: false, workspace })
  await requireDistinctToolNames(core, workspace)
  const catalog = await core.catalogFor(workspace)
  const status = await core.mcp.status(workspace, true)
  for (const line of mcpProblems(status)) printError(line)
  const settings = core.settings.snapshot()
  const shell = catalog.get('Shell')
    ? `Shell: ${describeSandbox(await core.sandbox.prepare(settings))}`
    : 'Shell: off (--no-shell, --shell "" or shell.enabled: false)'
  if (args.schema) {
    printJson(catalog.modelSchemas(), 2)
  } else if (args.json) {
    printJson(catalog.describe(), 2)
  } else {
    printLine(table(catalog.describe()).join('\n'))
  }
  // The table ends with it; with JSON on stdout it goes to stderr, so the JSON stays whole.
  if (args.schema || args.json) {
    if (catalog.get('Shell')) printError(shell)
  } else {
    printLine(shell)
  }
  await core.dispose()
  return 0
}

function table(tools: ToolDescriptor[]): string[] {
  const rows = tools.map((tool) => {
    const c = tool.capabilities
    const flags = [
      tool.readOnlyByCall
        ? 'read-only or mutating by call'
        : tool.readOnly
          ? 'read-only'
          : 'mutating',
      c.privateData ? 'private' : null,
      c.untrustedInput ? 'untrusted' : null,
      c.egress !== 'none' ? `egress:${c.egress}` : null,
      c.destructive ? 'destructive' : null
    ].filter(Boolean)
    return {
      name: tool.name,
      flags: flags.join(', '),
      source: tool.source,
      about: tool.description
    }
  })
  const width = (pick: (row: (typeof rows)[number]) => string, least: number): number =>
    Math.max(least, ...rows.map((row) => pick(row).length))
  const [name, flags, source] = [
    width((r) => r.name, 12),
    width((r) => r.flags, 20),
    width((r) => r.source, 7)
  ]
  return rows.map((row) =>
    [row.name.padEnd(name), row.flags.padEnd(flags), row.source.padEnd(source), oneLine(row.about)]
      .join('  ')
      .trimEnd()
  )
}

/** A description's first sentence on one line, cut to fit. */
export function oneLine(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim()
  const sentence = /^.+?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat
  return sentence.length > DESCRIPTION_CHARS
    ? `${sentence.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…`
    : sentence
}
