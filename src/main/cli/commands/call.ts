import { callOnce } from '../../agent/single-call'
import { UsageError, type CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'
import { requireDistinctToolNames } from '../mcp-collisions'
import { printJson } from '../print'

/**
 * `call TOOL 'JSON'`: one call through the same gate and dispatcher a session uses. Prints
 * {isError, content, external} (and refusedBy when the gate refused it); exits 1 on isError.
 */
export async function callCommand(args: CliArgs): Promise<number> {
  const [name, json = '{}', ...extra] = args.positionals
  if (!name)
    throw new UsageError(
      'call needs a tool name and its JSON input: call Read \'{"path":"README.md"}\''
    )
  if (extra.length > 0)
    throw new UsageError(`call takes one JSON argument; got also: ${extra.join(' ')}`)
  try {
    JSON.parse(json)
  } catch (error) {
    throw new UsageError(`the input for ${name} is not valid JSON: ${(error as Error).message}`)
  }
  const workspace = requireWorkspace(args)
  const core = await cliCore(args, { host: 'cli', interactive: false, workspace })
  await requireDistinctToolNames(core, workspace)
  // --mode and --yes reach the gate through the core's launch choices (see cliCore).
  const result = await callOnce(core.turns, workspace, name, json).finally(() => core.dispose())
  const printed = {
    isError: result.output.isError,
    content: result.output.content,
    external: result.output.external,
    ...(result.refusedBy ? { refusedBy: result.refusedBy } : {})
  }
  printJson(printed, 2)
  return result.output.isError ? 1 : 0
}
