import { promptCommand, type McpPrompt, type McpStatus } from '../../../../shared/mcp'

/** A server's prompt as a slash command in the chat input. */
export interface PromptEntry {
  command: string
  server: string
  prompt: string
  description: string | null
  arguments: McpPrompt['arguments']
}

/** The prompts of every ready server, as slash commands sorted by name. */
export function promptEntries(status: McpStatus | null): PromptEntry[] {
  return (status?.servers ?? [])
    .filter((server) => server.state === 'ready')
    .flatMap((server) =>
      server.prompts.map((prompt) => ({
        command: promptCommand(server.name, prompt.name),
        server: server.name,
        prompt: prompt.name,
        description: prompt.description ?? prompt.title,
        arguments: prompt.arguments
      }))
    )
    .sort((a, b) => (a.command < b.command ? -1 : a.command > b.command ? 1 : 0))
}

const MAX_SHOWN = 8

/** While the person types a command name (`/` and no space yet): the commands it could be. */
export function paletteMatches<E extends { command: string }>(
  draft: string,
  entries: readonly E[]
): E[] {
  if (!draft.startsWith('/') || /\s/.test(draft)) return []
  const typed = draft.toLowerCase()
  const starts = entries.filter((e) => e.command.toLowerCase().startsWith(typed))
  const contains = entries.filter(
    (e) => !starts.includes(e) && e.command.toLowerCase().includes(typed.slice(1))
  )
  return [...starts, ...contains].slice(0, MAX_SHOWN)
}

/** How to give a prompt's arguments, e.g. `city=… [state=…]`. */
export function argumentHint(entry: PromptEntry): string {
  return entry.arguments
    .map((arg) => (arg.required ? `${arg.name}=…` : `[${arg.name}=…]`))
    .join(' ')
}

export type Invocation =
  | { ok: true; entry: PromptEntry; args: Record<string, string> }
  | { ok: false; entry: PromptEntry; error: string }

const pair = /([A-Za-z_][\w-]*)=(?:"([^"]*)"|'([^']*)'|(\S*))/g

/**
 * A whole command with its arguments (`/mcp__s__p city=Paris state="New York"`), or null when the
 * text is not one of the commands. A prompt with one argument takes the rest of the line as is.
 */
export function parseInvocation(draft: string, entries: readonly PromptEntry[]): Invocation | null {
  const match = /^(\/\S+)(?:\s+([\s\S]*))?$/.exec(draft.trim())
  const entry = match && entries.find((e) => e.command === match[1])
  if (!match || !entry) return null
  const rest = (match[2] ?? '').trim()
  const args: Record<string, string> = {}
  const only = entry.arguments.length === 1 ? entry.arguments[0] : undefined
  if (only && rest && !rest.startsWith(`${only.name}=`)) {
    args[only.name] = rest
  } else {
    for (const m of rest.matchAll(pair)) {
      const name = m[1] ?? ''
      args[name] = m[2] ?? m[3] ?? m[4] ?? ''
    }
  }
  const known = new Set(entry.arguments.map((arg) => arg.name))
  const unknown = Object.keys(args).filter((name) => !known.has(name))
  if (unknown.length > 0) {
    return {
      ok: false,
      entry,
      error: `${entry.command} takes ${argumentHint(entry) || 'no arguments'}; not ${unknown.join(', ')}`
    }
  }
  const missing = entry.arguments.filter((arg) => arg.required && !args[arg.name])
  if (missing.length > 0) {
    return {
      ok: false,
      entry,
      error: `${entry.command} needs ${missing.map((arg) => arg.name).join(' and ')}: ${entry.command} ${argumentHint(entry)}`
    }
  }
  return { ok: true, entry, args }
}
