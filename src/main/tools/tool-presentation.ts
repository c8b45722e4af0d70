import type { ApprovalPreview, ChangeKind } from '../../shared/approvals'
import type { GroupPhrase, ResultView, ToolCard } from '../../shared/domain'
import { callsOf } from '../../shared/tool-card'
import { inputString, keyArgument } from '../../shared/tool-input'
import type { Tool } from './tool'

export type { ApprovalPreview, ChangeKind, GroupPhrase, ResultView }
export { callsOf }

/**
 * How the window shows a tool's calls: its card and the approval dialog. The window cannot import
 * tools, so main computes what it shows from these (toolCard, approvalFacts) and sends it along
 * with the call. Every function is given the input as the card shows it, which may not have
 * passed the tool's schema: it must read it defensively (see shared/tool-input.ts).
 */
export interface ToolPresentation {
  /** The card header's line about a call's key arguments. */
  summary(input: unknown): string
  /** How its calls read folded in a run of read-only calls; null: they never fold. */
  readonly grouped: GroupPhrase | null
  /** Which view shows its result. */
  readonly resultView: ResultView
  /** What a call will do, in one plain sentence, for a person deciding whether to allow it. */
  sentence(input: unknown): string
  /** What a call that is not read-only changes; `nothing` for a read-only tool. */
  readonly changes: ChangeKind
  /** The change a call proposes, shown as a diff in the dialog; null: the tool shows none. */
  readonly preview: ((input: unknown) => ApprovalPreview | null) | null
}

/** The file or folder a call names, for the dialog's sentence; null when it names none. */
export function pathIn(input: unknown): string | null {
  return inputString(input, 'path', 'file_path', 'file')
}

/** "read 1 file", "read {n} files". */
export function counted(verb: string, one: string, many: string): GroupPhrase {
  return { one: `${verb} 1 ${one}`, many: `${verb} {n} ${many}` }
}

/** The sentence for a tool that says no more about its calls: the arguments are shown below it. */
export function runsWithArguments(name: string): (input: unknown) => string {
  return () => `Run the tool ${name} with the arguments below.`
}

/**
 * The presentation of a tool that says nothing particular about its calls: its key argument on
 * the card, "called X" when folded (unless it says how its calls fold, or null: never), its result
 * as its display or text, the plain sentence.
 */
export function plainPresentation(
  name: string,
  changes: ChangeKind,
  grouped: GroupPhrase | null = callsOf(name)
): ToolPresentation {
  return {
    summary: keyArgument,
    grouped,
    resultView: 'display',
    sentence: runsWithArguments(name),
    changes,
    preview: null
  }
}

// A tool's presentation runs on whatever the model sent; one that throws must not cost the call
// its card or its approval, so what it cannot say is said the plain way.
function attempt<T>(said: () => T, plain: () => T): T {
  try {
    return said()
  } catch {
    return plain()
  }
}

/** What a call's card shows of it, from its tool's presentation. */
export function toolCard(tool: Tool, input: unknown): ToolCard {
  const { presentation } = tool
  return {
    summary: attempt(
      () => presentation.summary(input),
      () => keyArgument(input)
    ),
    grouped: presentation.grouped,
    resultView: presentation.resultView
  }
}

/** What the approval dialog says of a call, from its tool's presentation. */
export function approvalFacts(
  tool: Tool,
  input: unknown
): { sentence: string; changes: ChangeKind; preview?: ApprovalPreview } {
  const { presentation } = tool
  const sentence = attempt(
    () => presentation.sentence(input),
    () => runsWithArguments(tool.name)(input)
  )
  const preview = attempt(
    () => presentation.preview?.(input) ?? null,
    () => null
  )
  return { sentence, changes: presentation.changes, ...(preview ? { preview } : {}) }
}
