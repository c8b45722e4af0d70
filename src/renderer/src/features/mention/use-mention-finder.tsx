import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type JSX,
  type KeyboardEvent
} from 'react'
import type { ResourceRequest } from '../../../../shared/attachments'
import type { CallOutput } from '../../../../shared/contract'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { loadMcpStatus, useMcpStatus } from '../mcp'
import { useWorkspace } from '../sessions'
import { LatestOnly } from './latest-only'
import { MentionPopup, type MentionEntry } from './mention-popup'
import {
  insertMention,
  insertOpenMention,
  mentionAt,
  mentionText,
  resourceMentionText
} from './mention-text'
import {
  matchResources,
  resourceChoices,
  resourceRequest,
  serverEntries,
  serverMention
} from './resource-mention'

type Found = CallOutput<'files.find'>

/** Answers shown at most. */
const LIMIT = 50

export interface MentionFinder {
  /** Shown above the chat input while an `@query` is being typed, or null. */
  element: JSX.Element | null
  /** Handles a key in the chat input first; true when the finder used it. */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean
  /** Told where the caret is after every change of the input's text or selection. */
  onCaret: (caret: number, input: HTMLTextAreaElement) => void
}

/**
 * The `@` file finder of the chat input: typing `@` at the start of a word lists the project's
 * files and folders that match what follows, asked of the main process on every keystroke (an
 * answer to an older query is dropped); ↑↓ choose, Enter or Tab put the path in as a mention in
 * place of the `@query`, Escape closes. Nothing opens while an IME composition is in progress.
 * `@server:` (a configured MCP server's name and a colon) lists that server's resources instead,
 * filtered by what follows; picking one writes `@server:uri` and attaches it (`onResource`).
 * Servers with resources are listed first under a plain `@`, so people find that out.
 */
export function useMentionFinder(
  draft: string,
  setDraft: (text: string) => void,
  onResource?: (resource: ResourceRequest) => void
): MentionFinder {
  const workspace = useWorkspace()
  const status = useMcpStatus(workspace)
  const choices = useMemo(() => (onResource ? resourceChoices(status) : []), [status, onResource])
  const serverNames = useMemo(
    () => (onResource ? (status?.servers ?? []).map((server) => server.name) : []),
    [status, onResource]
  )
  const [caret, setCaret] = useState<number | null>(null)
  const [input, setInput] = useState<HTMLTextAreaElement | null>(null)
  const [composing, setComposing] = useState(false)
  const [found, setFound] = useState<{ query: string; answer: Found } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [active, setActive] = useState(0)
  const [dismissed, setDismissed] = useState<number | null>(null)
  const latest = useRef(new LatestOnly())
  const caretAfterPick = useRef<number | null>(null)

  const range = composing || caret === null || caret > draft.length ? null : mentionAt(draft, caret)
  const open = range !== null && range.start !== dismissed && workspace !== null
  const query = open ? range.query : null
  const inServer = query === null ? null : serverMention(query, serverNames)
  const fileQuery = inServer ? null : query

  // An Escape holds for that `@` only: typing elsewhere, or a new `@`, opens it again.
  if (dismissed !== null && range?.start !== dismissed) setDismissed(null)

  useEffect(() => {
    if (!input) return
    const start = (): void => setComposing(true)
    const end = (): void => setComposing(false)
    input.addEventListener('compositionstart', start)
    input.addEventListener('compositionend', end)
    return () => {
      input.removeEventListener('compositionstart', start)
      input.removeEventListener('compositionend', end)
    }
  }, [input])

  // The servers' resources, read once the finder first opens in this folder.
  const wantStatus = open && onResource !== undefined && status === null
  useEffect(() => {
    if (wantStatus && workspace) void loadMcpStatus(workspace)
  }, [wantStatus, workspace])

  useEffect(() => {
    if (fileQuery === null || workspace === null) {
      latest.current.drop()
      return
    }
    const query = fileQuery
    const ticket = latest.current.begin()
    call('files.find', { workspace, query, limit: LIMIT }).then(
      (answer) => {
        if (!latest.current.isNewest(ticket)) return
        setFound({ query, answer })
        setError(null)
        setActive(0)
      },
      (failure: unknown) => {
        if (latest.current.isNewest(ticket)) setError(errorMessage(failure))
      }
    )
  }, [fileQuery, workspace])

  // After a pick the caret goes after the mention, not to the end of the text.
  useLayoutEffect(() => {
    const at = caretAfterPick.current
    if (at === null || !input) return
    caretAfterPick.current = null
    input.setSelectionRange(at, at)
    setCaret(at)
  }, [draft, input])

  let items: MentionEntry[] = []
  if (open && inServer) {
    items = matchResources(choices, inServer).map((choice) => ({ kind: 'resource', choice }))
  } else if (open && query !== null) {
    const servers = serverEntries(choices, query).map((server) => ({
      kind: 'server' as const,
      server
    }))
    items = [...servers, ...(found ? found.answer.items : [])]
  }
  const selected = items[Math.min(active, items.length - 1)]

  const pick = (item: MentionEntry): void => {
    if (!range) return
    let next: { text: string; caret: number }
    if (item.kind === 'server') {
      next = insertOpenMention(draft, range, `@${item.server}:`)
      setActive(0)
    } else if (item.kind === 'resource') {
      next = insertMention(draft, range, resourceMentionText(item.choice.server, item.choice.uri))
      onResource?.(resourceRequest(item.choice))
    } else {
      next = insertMention(draft, range, mentionText(item.path, item.kind))
      setFound(null)
    }
    caretAfterPick.current = next.caret
    setDraft(next.text)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing || composing) return false
    if (event.key === 'Escape') {
      setDismissed(range.start)
    } else if (selected && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((at) => (Math.min(at, items.length - 1) + step + items.length) % items.length)
    } else if (selected && ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab')) {
      pick(selected)
    } else {
      return false
    }
    event.preventDefault()
    event.stopPropagation()
    return true
  }

  const element = open ? (
    <MentionPopup
      items={items}
      selected={selected}
      // Until the first answer comes, the list being built for a big folder says so.
      loading={inServer === null && found === null && error === null}
      server={inServer?.server ?? null}
      total={(found?.answer.total ?? 0) + items.filter((item) => item.kind === 'server').length}
      complete={found?.answer.complete ?? true}
      error={error}
      onPick={pick}
      onHover={(item) => setActive(items.indexOf(item))}
    />
  ) : null

  return {
    element,
    onKeyDown,
    onCaret: (at, el) => {
      setCaret(at)
      if (el !== input) setInput(el)
    }
  }
}
