import { shellTool, type RuleDecision, type RuleDraft } from './rule-draft'

/**
 * Why the tool of a rule being written cannot be used, or null: only a tool of the catalog, spelt
 * exactly, since a misspelt name is a rule that silently never matches. `catalog` is null while it
 * is being read.
 */
export function toolProblem(tool: string, catalog: readonly string[] | null): string | null {
  if (tool === '') return 'Choose the tool the rule is for.'
  if (catalog === null) return 'Reading the tool catalog…'
  if (catalog.includes(tool)) return null
  return `“${tool}” is not a tool in this project's catalog; choose one from the list.`
}

/** Whether the rule would apply to every Shell call: Shell with an empty command prefix. */
export function coversEveryShellCall(draft: RuleDraft): boolean {
  return draft.tool === shellTool && draft.command.trim() === ''
}

/** What a rule covering every Shell call does, asked about before it is saved. */
export function everyShellCallWarning(decision: RuleDecision): string {
  const effect =
    decision === 'allow'
      ? 'runs every Shell command without asking, whatever it does'
      : decision === 'prompt'
        ? 'asks about every Shell command, including the ones other rules allow'
        : 'refuses every Shell command'
  return `With no command prefix, this rule ${effect}. Add it anyway?`
}
