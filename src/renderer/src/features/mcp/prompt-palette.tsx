import { useEffect, useMemo, useState, type JSX, type KeyboardEvent } from 'react'
import { errorMessage } from '../../lib/errors'
import { useWorkspace } from '../sessions'
import { openShortcuts } from '../shortcuts'
import {
  builtinOf,
  commandItems,
  loadCommands,
  runBuiltin,
  useSlashCommands,
  type PaletteItem
} from '../skills'
import { fetchPrompt, loadMcpStatus } from './mcp-store'
import { useMcpStatus } from './use-mcp-status'
import {
  argumentHint,
  paletteMatches,
  parseInvocation,
  promptEntries,
  type PromptEntry
} from './slash-prompts'
import './mcp.css'

/** A palette line; MCP prompts carry the prompt they fetch. */
type Line = PaletteItem & { prompt?: PromptEntry }

export interface PromptPalette {
  /** Shown above the chat input, or null. */
  element: JSX.Element | null
  /** Handles a key in the chat input first; true when the palette used it. */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean
}

/**
 * Slash commands in the chat input: typing `/` lists the built-ins, the project's and the
 * person's command files and skills, and MCP prompts. Choosing a built-in (Enter or Tab) runs it;
 * a command or skill goes into the input to be sent (the main process expands it); an MCP prompt
 * is fetched into the input, or first asks for its arguments as `name=value`.
 */
export function usePromptPalette(draft: string, setDraft: (text: string) => void): PromptPalette {
  const workspace = useWorkspace()
  const status = useMcpStatus(workspace)
  const entries = useMemo(() => promptEntries(status), [status])
  const commands = useSlashCommands(workspace)
  const lines = useMemo<Line[]>(
    () => [
      ...commandItems(commands),
      ...entries.map((prompt) => ({ ...prompt, tag: 'MCP' as const, prompt }))
    ],
    [commands, entries]
  )
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const slash = draft.startsWith('/')
  useEffect(() => {
    if (slash && workspace && !status) void loadMcpStatus(workspace)
  }, [slash, workspace, status])
  // Read afresh each time the palette opens, so a command file just saved is offered.
  useEffect(() => {
    if (slash && workspace) void loadCommands(workspace)
  }, [slash, workspace])
  // A new draft starts the list at the top and clears an old error (React's "adjust state when
  // a prop changes" pattern, without an extra render pass).
  const [seenDraft, setSeenDraft] = useState(draft)
  if (seenDraft !== draft) {
    setSeenDraft(draft)
    setActive(0)
    setError(null)
  }

  const matches = dismissed === draft ? [] : paletteMatches(draft, lines)
  const invocation = slash && matches.length === 0 ? parseInvocation(draft, entries) : null
  const selected = matches[Math.min(active, matches.length - 1)]

  const run = (entry: PromptEntry, args: Record<string, string>): void => {
    setBusy(true)
    setError(null)
    fetchPrompt(entry.server, entry.prompt, args)
      .then((text) => setDraft(text))
      .catch((failure: unknown) => setError(errorMessage(failure)))
      .finally(() => setBusy(false))
  }

  const choose = (line: Line): void => {
    const entry = line.prompt
    const builtin = builtinOf(line)
    if (entry) {
      if (entry.arguments.length === 0) run(entry, {})
      else setDraft(`${entry.command} `)
    } else if (builtin === 'help') {
      // A local command: the shortcuts list opens, with the commands; nothing is sent.
      setDraft('')
      openShortcuts(lines.map(({ command, description, tag }) => ({ command, description, tag })))
    } else if (builtin) {
      setDraft('')
      void runBuiltin(builtin).then((failure) => failure && setError(failure))
    } else {
      // Sent as typed: the main process expands it, with what follows as $ARGUMENTS.
      setDraft(`${line.command} `)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (event.nativeEvent.isComposing || busy) return false
    if (selected) {
      const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0
      if (step !== 0) {
        setActive((at) => (at + step + matches.length) % matches.length)
      } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        choose(selected)
      } else if (event.key === 'Escape') {
        setDismissed(draft)
      } else {
        return false
      }
      event.preventDefault()
      event.stopPropagation()
      return true
    }
    // `/help` is local even with the list closed (Escape): it never goes to the model.
    const help = lines.find((line) => builtinOf(line) === 'help')
    if (help && draft.trim() === help.command && event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      choose(help)
      return true
    }
    if (invocation && event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      if (invocation.ok) run(invocation.entry, invocation.args)
      else setError(invocation.error)
      return true
    }
    return false
  }

  let element: JSX.Element | null = null
  if (selected) {
    element = (
      <div className="prompt-palette" data-testid="prompt-palette">
        <ul className="prompt-palette__list" role="listbox" aria-label="Commands">
          {matches.map((entry) => (
            <li
              key={`${entry.tag}:${entry.command}`}
              role="option"
              aria-selected={entry === selected}
              className={`prompt-palette__item${entry === selected ? ' prompt-palette__item--active' : ''}`}
              data-testid="prompt-palette-item"
              onMouseDown={(event) => {
                // Keep focus in the input.
                event.preventDefault()
                choose(entry)
              }}
            >
              <span className="prompt-palette__command">{entry.command}</span>
              <span className="prompt-palette__text">
                {entry.prompt && entry.prompt.arguments.length > 0 && (
                  <span className="mono">{argumentHint(entry.prompt)} </span>
                )}
                {entry.description}
              </span>
              <span className="prompt-palette__tag">{entry.tag}</span>
            </li>
          ))}
        </ul>
        <div className="prompt-palette__footer">
          Commands · ↑↓ to choose · Enter or Tab to use · Esc to close
        </div>
      </div>
    )
  } else if (invocation || busy || error) {
    const hint = busy
      ? 'Fetching the prompt…'
      : (error ??
        (invocation?.ok
          ? `Enter fetches ${invocation.entry.command} into the message`
          : `${invocation?.entry.command} ${invocation ? argumentHint(invocation.entry) : ''}: give the arguments, then Enter`))
    element = (
      <div className="prompt-palette" data-testid="prompt-palette">
        <div
          className={`prompt-palette__footer${error ? ' prompt-palette__footer--error' : ''}`}
          role={error ? 'alert' : 'status'}
        >
          {hint}
        </div>
      </div>
    )
  }
  return { element, onKeyDown }
}
