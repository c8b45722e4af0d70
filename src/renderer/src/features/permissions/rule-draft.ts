import type { ApprovalRequest, RuleScope, RulesView } from '../../../../shared/approvals'
import { inputString } from '../../../../shared/tool-input'

export type RuleDecision = 'allow' | 'prompt' | 'forbid'
export type RuleView = RulesView['user']['rules'][number]

/** A rule as the person edits it, before it is saved. */
export interface RuleDraft {
  scope: RuleScope
  tool: string
  /** Shell only: the words a command must start with; empty means every Shell command. */
  command: string
  decision: RuleDecision
}

export const shellTool = 'Shell'

export const scopeOptions: { value: RuleScope; label: string; hint: string }[] = [
  { value: 'session', label: 'This session', hint: 'Until this session ends; nothing is saved.' },
  {
    value: 'project',
    label: 'This project',
    hint: 'Saved in .mecatl/settings.yaml in this folder, for every session here.'
  },
  { value: 'user', label: 'Everywhere', hint: 'Saved in your settings, for every project.' }
]

export const decisionOptions: { value: RuleDecision; label: string }[] = [
  { value: 'allow', label: 'Allow without asking' },
  { value: 'prompt', label: 'Always ask' },
  { value: 'forbid', label: 'Forbid' }
]

// Commands that run another command; the rules look through them, so the default does too.
const wrappers = new Set(['timeout', 'nice', 'nohup', 'time', 'env', 'command'])
// Package runners whose second word names a script: `npm run build` is about `build`.
const runners = new Set(['npm', 'pnpm', 'yarn', 'bun'])
const scriptVerbs = new Set(['run', 'run-script', 'exec'])

const subcommand = /^[A-Za-z][\w:-]*$/
const wrapperArgument = /^(-.*|\d+(\.\d+)?[smhd]?|[A-Za-z_]\w*=.*)$/

/**
 * The words a Shell rule made from `command` starts with by default: the program and, when the
 * next word looks like one, its subcommand (`npm test -- --watch` → `npm test`, `git push origin
 * main` → `git push`, `ls -la` → `ls`). Only a default: the person sees it and can edit it.
 */
export function defaultCommandPrefix(command: string): string {
  // Only the first simple command: an operator, a quote or an expansion ends it.
  const head = command.split(/[;&|<>()\n`$"'\\]/)[0] ?? ''
  const words = head.trim().split(/\s+/).filter(Boolean)
  let at = 0
  while (at < words.length && /^[A-Za-z_]\w*=/.test(words[at] ?? '')) at++
  while (at < words.length && wrappers.has(words[at] ?? '')) {
    at++
    while (at < words.length && wrapperArgument.test(words[at] ?? '')) at++
  }
  const program = words[at]
  if (!program) return ''
  const kept = [program]
  const second = words[at + 1]
  if (second && subcommand.test(second)) {
    kept.push(second)
    const third = words[at + 2]
    if (runners.has(program) && scriptVerbs.has(second) && third && subcommand.test(third)) {
      kept.push(third)
    }
  }
  return kept.join(' ')
}

/** The rule "Always allow…" proposes for an approval request, in the narrowest scope. */
export function draftForRequest(request: Pick<ApprovalRequest, 'tool' | 'input'>): RuleDraft {
  const command = request.tool === shellTool ? inputString(request.input, 'command') : null
  return {
    scope: 'session',
    tool: request.tool,
    command: command ? defaultCommandPrefix(command) : '',
    decision: 'allow'
  }
}

/** The rule as the settings file stores it: `command` only for Shell, and only when given. */
export function ruleFromDraft(draft: RuleDraft): RuleView {
  const tool = draft.tool.trim()
  const command = draft.command.trim()
  return {
    tool,
    decision: draft.decision,
    ...(tool === shellTool && command ? { command } : {})
  }
}

/** What a listed rule applies to, in a few words. */
export function ruleTarget(rule: RuleView): string {
  if (rule.command !== undefined) return `commands starting with ${rule.command}`
  return rule.tool === shellTool ? 'every command' : `every ${rule.tool} call`
}

export function decisionLabel(decision: RuleDecision): string {
  return decisionOptions.find((d) => d.value === decision)?.label ?? decision
}

/** A stable key for a listed rule: scopes may hold equal rules, so the index is part of it. */
export function ruleKey(scope: RuleScope, index: number, rule: RuleView): string {
  return `${scope}:${index}:${rule.tool}:${rule.command ?? ''}:${rule.decision}`
}
