import type { SettingsIssue } from '../../shared/settings'
import { checkRuleExamples, type PermissionRule } from './rules'

/**
 * A rule whose own examples disagree with it is a mistake to stop on, not to run with: each such
 * rule as a problem of the settings file it is in, at `at`. The settings files are given this
 * check (see RuleCheck in settings-store.ts): they sit below the gate that knows how rules match.
 */
export async function ruleExampleIssues(
  rules: readonly PermissionRule[],
  at: string[] = ['permissions', 'rules']
): Promise<SettingsIssue[]> {
  const problems = await checkRuleExamples(rules)
  return problems.map((p) => ({
    path: [...at, p.index].join('.'),
    segments: [...at, p.index],
    message: p.message
  }))
}
