import type { TranscriptItem } from '../../shared/domain'
import type { RulePreview } from '../../shared/approvals'
import { permissionRuleSchema } from '../../shared/settings'
import { notCoveredBy } from './program-options'
import { checkRuleExamples, compileCommand, exampleMatches, judgeShell } from './rules'
import { shortSource } from './shell-token'

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
  const uncovered: string[] = []
  for (const call of calls) {
    const command = (call.input as { command?: unknown } | null)?.command
    if (typeof command !== 'string') continue
    const verdict = await judgeShell(command, [rule], rule.tool)
    if (verdict.decision === rule.decision) matches.push(command)
    else if (typeof prefix !== 'string' && (await exampleMatches(command, prefix))) {
      uncovered.push(command)
    }
  }
  const described = `${verbs[rule.decision]} any command that starts with the words \`${words}\` (with any arguments after them), when every other command on the line is allowed too`
  return {
    description:
      rule.decision === 'allow' && typeof prefix !== 'string'
        ? `${described}. ${notCovered(prefix, uncovered)}`
        : described,
    sessionMatches: matches,
    problem: null
  }
}

/**
 * What an allow rule will not cover, in words: the options of its program that run other
 * programs or write files (see program-options.ts), what always needs a person, and the calls
 * of this session that start with its words but it would still not let run.
 */
export function notCovered(prefix: readonly string[], uncovered: readonly string[]): string {
  const [program = ''] = prefix
  const options = notCoveredBy(program)
  const own = options ? `${options}, ` : ''
  const shown = uncovered.slice(0, 3).map((c) => `\`${shortSource(c)}\``)
  const calls =
    shown.length === 0
      ? ''
      : `; of this session's calls, it would not let ${shown.join(', ')}${uncovered.length > 3 ? ' and others' : ''} run`
  return `It does not cover ${own}a redirection that writes a file, a write into .git, or anything the judge cannot see (\`eval\`, a script file, a hidden substitution): those still ask${calls}`
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
