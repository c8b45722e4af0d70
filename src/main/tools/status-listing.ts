import { textOutput, type ToolOutput } from './tool'

/**
 * A status tool called with no id (ShellStatus, SubagentStatus): the session's background work,
 * one line each, or a sentence saying there is none.
 */
export function statusListing<T>(
  items: readonly T[],
  noun: string,
  line: (item: T) => string
): ToolOutput {
  if (items.length === 0) return textOutput(`No ${noun}s in this session.`)
  return textOutput(
    [`${items.length} ${noun}${items.length === 1 ? '' : 's'} in this session:`]
      .concat(items.map(line))
      .join('\n')
  )
}
