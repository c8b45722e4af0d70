import type { GateDecision, GatePolicy, GateRequest } from './gate'
import type { Tool } from '../tools/tool'
import { judgeTool } from './rules'

/**
 * The name of the second decision a Shell call with `temp_scope: "system"` needs, besides the
 * Shell decision: rules name it as a tool (`{ tool: ShellSystemTemp, decision: allow }`), and the
 * approval dialog asks for it as one, so "Always allow" makes exactly that rule.
 */
export const SYSTEM_TEMP = 'ShellSystemTemp'

/** How the gate asks a person (its own askPerson, bound to the call's signal). */
export type AskPerson = (
  request: GateRequest,
  why: string,
  may: { yes: boolean; rule?: false }
) => Promise<GateDecision>

/** Whether the call asks for the system temp directory, which needs the second decision. */
export function wantsSystemTemp(request: GateRequest): boolean {
  if (request.tool.name !== 'Shell') return false
  return (request.input as { temp_scope?: unknown } | null)?.temp_scope === 'system'
}

/**
 * A rule that forbids ShellSystemTemp: checked before the Shell decision, so nobody is asked
 * about a command that cannot run anyway. Null when none does.
 */
export async function systemTempForbidden(
  request: GateRequest,
  policy: GatePolicy
): Promise<GateDecision | null> {
  if (!wantsSystemTemp(request)) return null
  const verdict = judgeTool(SYSTEM_TEMP, await rulesOf(policy))
  if (verdict.decision !== 'forbid') return null
  return refused(request, `a permission rule forbids ${SYSTEM_TEMP}.`, 'rule')
}

/**
 * The second decision, made once the Shell decision allowed the call: a rule for
 * ShellSystemTemp decides; else the mode (allow: allowed; ask: a person, or --yes). Allowed, the
 * Shell decision stands as it was; refused, the whole call is, saying why.
 */
export async function decideSystemTemp(
  request: GateRequest,
  shell: GateDecision,
  policy: GatePolicy,
  ask: AskPerson
): Promise<GateDecision> {
  if (!shell.allowed || !wantsSystemTemp(request)) return shell
  const verdict = judgeTool(SYSTEM_TEMP, await rulesOf(policy))
  if (verdict.decision === 'forbid') {
    return refused(request, `a permission rule forbids ${SYSTEM_TEMP}.`, 'rule')
  }
  if (verdict.decision === 'allow') return shell
  if (verdict.decision === null && policy.mode === 'allow') return shell
  const asked: GateRequest = { ...request, tool: systemTempAsk(request.tool) }
  const why =
    verdict.decision === 'prompt'
      ? `a rule asks a person: ${verdict.reason}`
      : `this command asks for the system temp directory (temp_scope: "system") instead of its own private TMPDIR: what it writes there outlives it, and it can read and change the temporary files other programs keep there (mode "ask")`
  const second = await ask(asked, why, { yes: verdict.decision === null })
  if (second.allowed) return shell
  return refused(request, second.reason, second.refusedBy)
}

/**
 * The second decision asked as a tool of its own: Shell's facts, under the name rules give it,
 * saying what this decision gives away rather than what the command does.
 */
function systemTempAsk(shell: Tool): Tool {
  return {
    ...shell,
    name: SYSTEM_TEMP,
    presentation: {
      ...shell.presentation,
      sentence: () =>
        'Give the command below the shared system temp directory instead of its own empty one: it can read and change what other programs keep there.'
    }
  }
}

function refused(
  request: GateRequest,
  why: string,
  by: Extract<GateDecision, { allowed: false }>['refusedBy']
): GateDecision {
  return {
    allowed: false,
    refusedBy: by,
    reason: `${request.tool.name} with temp_scope "system" needs a second permission, ${SYSTEM_TEMP}, and did not get it: ${why} Nothing was run. Leave temp_scope out to run the command with its own private TMPDIR, or ask the person to allow ${SYSTEM_TEMP}.`
  }
}

async function rulesOf(policy: GatePolicy): ReturnType<NonNullable<GatePolicy['currentRules']>> {
  return policy.currentRules ? policy.currentRules() : policy.rules
}
