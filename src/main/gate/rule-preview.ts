import type { TranscriptItem } from '../../shared/domain'
import type { RulePreview } from '../../shared/approvals'
import { permissionRuleSchema } from '../../shared/settings'
import { checkRuleExamples, compileCommand, judgeShell } from './rules'

/**
 * What a proposed rule would cover: in words, and the earlier calls of this session it would
 * also have decided, so the person sees how wide "Always allow" really is before saving it.
 */
export async function previewRule(
  raw: unknown,
  transcript: readonly TranscriptItem[]
): Promise<RulePreview> {
  const parsed = permissionRuleSchema.safeParse(raw)
  if (!parsed.success) {
    return {
      description: '',
      sessionMatches: [],
      problem: parsed.error.issues[0]?.message ?? 'invalid'
    }
  }
  const rule = parsed.data
  const problems = await checkRuleExamples([rule])
  if (problems.length > 0) {
    return { description: '', sessionMatches: [], problem: problems[0]?.message ?? 'invalid' }
  }
  const calls = transcript.flatMap((item) =>
    item.kind === 'tool' && item.call.name === rule.tool ? [item.call] : []
  )
  if (rule.command === undefined) {
    return {
      description: `${verbs[rule.decision]} every ${rule.tool} call, whatever its arguments`,
      sessionMatches: calls.map((call) => `${call.name} ${summarise(call.input)}`),
      problem: null
    }
  }
  const prefix = await compileCommand(rule.command)
  const words = typeof prefix === 'string' ? rule.command : prefix.join(' ')
  const matches: string[] = []
  for (const call of calls) {
    const command = (call.input as { command?: unknown } | null)?.command
    if (typeof command !== 'string') continue
    const verdict = await judgeShell(command, [rule], rule.tool)
    if (verdict.decision === rule.decision) matches.push(command)
  }
  return {
    description: `${verbs[rule.decision]} any command that starts with the words \`${words}\` (with any arguments after them), when every other command on the line is allowed too`,
    sessionMatches: matches,
    problem: null
  }
}

const verbs = {
  allow: 'Allow',
  prompt: 'Ask a person before',
  forbid: 'Forbid'
} as const

function summarise(input: unknown): string {
  const text = JSON.stringify(input) ?? ''
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}
