import { gitAccess, gitWriteReason } from './git-subcommands'
import { judgeRedirections } from './redirections'
import { analyzeShell, type SimpleCommand, type Token } from './shell-command'
import { unwrap } from './wrappers'

export type RuleDecision = 'allow' | 'prompt' | 'forbid'

/** A saved permission rule; `command` (Shell only) is an argv prefix written as shell words. */
export interface PermissionRule {
  tool: string
  command?: string
  decision: RuleDecision
  match?: string[]
  not_match?: string[]
}

/** What the rules say of one call: a decision, or null when no rule speaks (the mode decides). */
export interface RuleVerdict {
  decision: RuleDecision | null
  reason: string
  /** The line cannot be proven harmless (not a rule's word): a person must decide, never a rule. */
  concern?: true
  /**
   * No command rule covers what the line does (a write into the project folder by redirection,
   * an option that runs another program): an allow rule is not relied on, and the mode decides.
   */
  uncovered?: true
  /** No rule spoke: this is the tool's default decision (see floor.ts), not a person's rule. */
  floor?: true
  /**
   * The line may write into a `.git` folder (a git subcommand not proven to read, a redirection
   * into one): `prompt` whatever the rules say, with `concern`; a person's approval lets that
   * one command write there.
   */
  gitWrite?: true
}

export interface ShellJudgeOptions {
  /** The project folder, to judge where redirections write; without it every write is a concern. */
  workspace?: string
}

const strictness: Record<RuleDecision, number> = { allow: 0, prompt: 1, forbid: 2 }

function strictest(a: RuleDecision, b: RuleDecision): RuleDecision {
  return strictness[a] >= strictness[b] ? a : b
}

/** The rules for a tool that are not about particular shell commands. */
export function judgeTool(tool: string, rules: readonly PermissionRule[]): RuleVerdict {
  const applicable = rules.filter((r) => r.tool === tool && r.command === undefined)
  if (applicable.length === 0) return { decision: null, reason: `no rule names ${tool}` }
  const decision = applicable.map((r) => r.decision).reduce(strictest)
  return { decision, reason: `a rule says ${decision} for ${tool}` }
}

type Match = 'yes' | 'no' | 'maybe'

/**
 * A rule's argv prefix against a command's argv: unknown tokens in the prefix make it `maybe`,
 * and so does a program named by its path (`/bin/rm` for a rule about `rm`), which might be the
 * same program: a forbidding rule then asks, an allowing one is not relied on.
 */
function matches(prefix: readonly string[], argv: readonly Token[]): Match {
  if (argv.length < prefix.length) return 'no'
  let result: Match = 'yes'
  for (let i = 0; i < prefix.length; i++) {
    const token = argv[i]
    const word = prefix[i] ?? ''
    if (!token?.known) result = 'maybe'
    else if (i === 0 && !word.includes('/') && token.text.endsWith(`/${word}`)) result = 'maybe'
    else if (token.text !== word) return 'no'
  }
  return result
}

interface CompiledRule {
  rule: PermissionRule
  prefix: string[] | null
}

/** A rule's `command` as the argv prefix it stands for, or why it cannot be one. */
export async function compileCommand(command: string): Promise<string[] | string> {
  const analysis = await analyzeShell(command)
  const [only, ...others] = analysis.commands
  if (!only || others.length > 0 || analysis.concerns.length > 0) {
    return `"${command}" must be one plain command (words only, no operators or redirections)`
  }
  const words: string[] = []
  for (const token of only.argv) {
    if (!token.known) return `"${command}" contains an expansion (${token.source}); use plain words`
    words.push(token.text)
  }
  return words
}

/**
 * Judges a whole shell line: every simple command in it must be allowed for the line to be
 * allowed; the strictest decision wins; anything that cannot be resolved is at least `prompt`.
 * A write into the project folder by redirection is no command's to allow: a line with one is
 * left to the mode (null) unless a rule forbids or prompts. A line that may write into `.git` is
 * `prompt` (marked `gitWrite`) unless a rule forbids it.
 */
export async function judgeShell(
  line: string,
  rules: readonly PermissionRule[],
  tool = 'Shell',
  options: ShellJudgeOptions = {}
): Promise<RuleVerdict> {
  const compiled: CompiledRule[] = []
  for (const rule of rules.filter((r) => r.tool === tool)) {
    const prefix = rule.command === undefined ? null : await compileCommand(rule.command)
    if (typeof prefix === 'string') continue
    compiled.push({ rule, prefix })
  }
  const analysis = await analyzeShell(line)
  const verdicts = analysis.commands.map((command) => judgeCommand(command, compiled))
  const redirections = await judgeRedirections(analysis, options.workspace)
  const concerns = [
    ...analysis.concerns,
    ...redirections.concerns,
    ...verdicts.flatMap((v) => v.concerns)
  ]

  const forbidden = verdicts.find((v) => v.decision === 'forbid')
  if (forbidden) return { decision: 'forbid', reason: forbidden.reason }
  // No rule covers a write into .git; only a person can, so it leads whatever else is asked.
  const gitWrites = [...analysis.commands.flatMap(gitWriteOf), ...redirections.gitWrites]
  if (gitWrites.length > 0) {
    const [first = ''] = gitWrites
    const [also] = concerns
    const reason = also === undefined ? first : `${first}; also, ${also}`
    return { decision: 'prompt', reason, concern: true, gitWrite: true }
  }
  const prompted = verdicts.find((v) => v.decision === 'prompt')
  if (concerns.length > 0) return { decision: 'prompt', reason: concerns[0] ?? '', concern: true }
  if (prompted) return { decision: 'prompt', reason: prompted.reason }
  const [written] = redirections.writes
  if (written !== undefined) {
    return { decision: null, reason: `${written}, which no command rule covers`, uncovered: true }
  }
  const [option] = verdicts.flatMap((v) => v.uncovered)
  if (option !== undefined) return { decision: null, reason: option, uncovered: true }
  if (verdicts.length > 0 && verdicts.every((v) => v.decision === 'allow')) {
    return { decision: 'allow', reason: verdicts.map((v) => v.reason).join('; ') }
  }
  const unmatched = verdicts.find((v) => v.decision === null)
  return { decision: null, reason: unmatched?.reason ?? 'no command to judge' }
}

/** Why `command` needs a person as a write into .git, in a list of one, or none. */
function gitWriteOf(command: SimpleCommand): string[] {
  const access = gitAccess(unwrap(command.argv).argv)
  return access === 'write' || access === 'unproven' ? [gitWriteReason(command.source, access)] : []
}

interface CommandVerdict {
  decision: RuleDecision | null
  reason: string
  concerns: string[]
  uncovered: string[]
}

function judgeCommand(command: SimpleCommand, rules: readonly CompiledRule[]): CommandVerdict {
  // The wrappers' own concerns are already among the command's (see shell-command.ts).
  const argv = unwrap(command.argv).ruled
  const concerns = command.concerns
  let decision: RuleDecision | null = null
  let reason = `no rule matches \`${command.source}\``
  for (const { rule, prefix } of rules) {
    const match = prefix === null ? 'yes' : matches(prefix, argv)
    if (match === 'no') continue
    // A forbidding rule that might match cannot be ruled out; an allowing one cannot be relied on.
    const effective: RuleDecision | null =
      match === 'yes' ? rule.decision : rule.decision === 'allow' ? null : 'prompt'
    if (effective === null) continue
    if (decision === null || strictness[effective] > strictness[decision]) {
      decision = effective
      reason = `\`${command.source}\` ${describeMatch(match, rule)}`
    } else if (effective === decision && prefix !== null && rule.decision === effective) {
      reason = `\`${command.source}\` ${describeMatch(match, rule)}`
    }
  }
  return { decision, reason, concerns, uncovered: command.uncovered }
}

function describeMatch(match: Match, rule: PermissionRule): string {
  const what =
    rule.command === undefined ? `the rule for ${rule.tool}` : `the rule "${rule.command}"`
  return match === 'yes'
    ? `matches ${what} (${rule.decision})`
    : `might match ${what} (${rule.decision}), so it needs a person`
}

/** Checks each rule's `match`/`not_match` examples; the settings fail loudly when one is wrong. */
export async function checkRuleExamples(
  rules: readonly PermissionRule[]
): Promise<{ index: number; message: string }[]> {
  const problems: { index: number; message: string }[] = []
  for (const [index, rule] of rules.entries()) {
    if (rule.command !== undefined) {
      const prefix = await compileCommand(rule.command)
      if (typeof prefix === 'string') {
        problems.push({ index, message: prefix })
        continue
      }
      for (const example of rule.match ?? []) {
        if (!(await exampleMatches(example, prefix))) {
          problems.push({
            index,
            message: `the rule "${rule.command}" does not match its example "${example}"`
          })
        }
      }
      for (const example of rule.not_match ?? []) {
        if (await exampleMatches(example, prefix)) {
          problems.push({
            index,
            message: `the rule "${rule.command}" matches "${example}", listed under not_match`
          })
        }
      }
    }
  }
  return problems
}

/** Whether a command on the line `example` starts with the words `prefix` (wrappers removed). */
export async function exampleMatches(example: string, prefix: readonly string[]): Promise<boolean> {
  const analysis = await analyzeShell(example)
  return analysis.commands.some((command) => matches(prefix, unwrap(command.argv).ruled) !== 'no')
}
