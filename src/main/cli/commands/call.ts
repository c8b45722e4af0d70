import { dispatch } from '../../agent/dispatcher'
import { Gate, nobodyToAsk } from '../../gate/gate'
import { gatePolicy } from '../../gate/policy'
import { PathJail } from '../../workspace/path-jail'
import { ReadVersions } from '../../workspace/read-versions'
import { UsageError, type CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'

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
  const settings = (await core.settings.get()).settings
  const [result] = await dispatch([{ id: 'cli-call', name, input: json }], {
    sessionId: 'cli',
    catalog: await core.catalogFor(workspace),
    gate: new Gate(
      gatePolicy(settings, {
        workspace,
        modeOverride: args.mode,
        autoApprove: args.yes,
        rules: await core.rules.effective({ workspace })
      }),
      nobodyToAsk
    ),
    context: {
      sessionId: 'cli',
      jail: new PathJail(workspace),
      reads: new ReadVersions(),
      signal: new AbortController().signal
    },
    onUpdate: () => undefined
  })
  await core.dispose()
  if (!result) return 1
  const printed = {
    isError: result.output.isError,
    content: result.output.content,
    external: result.output.external,
    ...(result.refusedBy ? { refusedBy: result.refusedBy } : {})
  }
  console.log(JSON.stringify(printed, null, 2))
  return result.output.isError ? 1 : 0
}
