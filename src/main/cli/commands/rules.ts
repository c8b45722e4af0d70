import { judgeShell } from '../../gate/rules'
import { UsageError, type CliArgs } from '../args'
import { cliCore, requireWorkspace } from '../context'
import { printJson, printLine } from '../print'

/**
 * `rules check 'COMMAND'`: what the permission rules in force say of a shell command, and which
 * rule (or concern) decided it. `decision` is allow, prompt or forbid; with no rule speaking, the
 * mode decides (`ask` prompts for Shell, `allow` allows, `read-only` forbids).
 */
export async function rulesCommand(args: CliArgs): Promise<number> {
  const [verb, command, ...extra] = args.positionals
  if (verb !== 'check' || !command || extra.length > 0) {
    throw new UsageError("rules takes one verb: rules check 'COMMAND' [--json]")
  }
  const core = await cliCore(args, { host: 'cli', interactive: false, workspace: args.workspace })
  const settings = core.settings.snapshot()
  const workspace = args.workspace ? requireWorkspace(args) : null
  const rules = workspace ? await core.rules.effective({ workspace }) : settings.permissions.rules
  await core.dispose()
  // Where redirections write is judged against the folder the command would run in, as `call`
  // and sessions judge it: without one, every write by redirection needs a person.
  const verdict = await judgeShell(command, rules, 'Shell', {
    workspace: workspace ?? process.cwd()
  })
  const mode = args.mode ?? settings.permissions.mode
  const decision =
    verdict.decision ?? (mode === 'allow' ? 'allow' : mode === 'read-only' ? 'forbid' : 'prompt')
  const rule =
    verdict.decision === null ? `no rule matches; mode "${mode}" decides` : verdict.reason
  if (args.json) printJson({ decision, rule })
  else printLine(`${decision}: ${rule}`)
  return 0
}
