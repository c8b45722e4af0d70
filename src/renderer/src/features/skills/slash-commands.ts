import type { CommandView } from '../../../../shared/skills'

/** A line of the chat input's palette: a project command, a built-in, a skill or an MCP prompt. */
export interface PaletteItem {
  /** With the slash: `/review`. */
  command: string
  description: string | null
  /** What kind of command, shown as a small tag. */
  tag: 'built-in' | 'command' | 'skill' | 'user command' | 'user skill' | 'learned skill' | 'MCP'
}

/** The palette's lines for a folder's commands (the main process already merged them). */
export function commandItems(commands: readonly CommandView[] | null): PaletteItem[] {
  return (commands ?? []).map((c) => ({
    command: `/${c.name}`,
    description: c.description || null,
    tag:
      c.kind === 'builtin'
        ? 'built-in'
        : c.origin === 'learned'
          ? 'learned skill'
          : c.origin === 'user'
            ? c.kind === 'skill'
              ? 'user skill'
              : 'user command'
            : c.kind
  }))
}

export type BuiltinName = 'new' | 'clear' | 'model' | 'plan' | 'help'

const builtins: readonly string[] = ['new', 'clear', 'model', 'plan', 'help']

/** The built-in a chosen palette line names, or null for one that expands into a message. */
export function builtinOf(item: PaletteItem): BuiltinName | null {
  const name = item.command.slice(1)
  return item.tag === 'built-in' && builtins.includes(name) ? (name as BuiltinName) : null
}

/** A typed `/name` (nothing after it) that is a built-in, so Enter runs it instead of sending. */
export function typedBuiltin(draft: string, items: readonly PaletteItem[]): PaletteItem | null {
  const typed = draft.trim()
  return items.find((item) => item.command === typed && builtinOf(item) !== null) ?? null
}
