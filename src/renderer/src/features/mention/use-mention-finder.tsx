import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { useSessions } from '../sessions/sessions-store'
import { LatestOnly } from './latest-only'
import { MentionPopup } from './mention-popup'
import { insertMention, mentionAt, mentionText } from './mention-text'

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
 */
export function useMentionFinder(draft: string, setDraft: (text: string) => void): MentionFinder {
  const workspace = useSessions((s) => s.state.workspace)
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

  useEffect(() => {
    if (query === null || workspace === null) {
      latest.current.drop()
      return
    }
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
  }, [query, workspace])

  // After a pick the caret goes after the mention, not to the end of the text.
  useLayoutEffect(() => {
    const at = caretAfterPick.current
    if (at === null || !input) return
    caretAfterPick.current = null
    input.setSelectionRange(at, at)
    setCaret(at)
  }, [draft, input])

  const items = open && found ? found.answer.items : []
  const selected = items[Math.min(active, items.length - 1)]

  const pick = (item: Found['items'][number]): void => {
    if (!range) return
    const next = insertMention(draft, range, mentionText(item.path, item.kind))
    caretAfterPick.current = next.caret
    setFound(null)
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
      loading={found === null && error === null}
      total={found?.answer.total ?? 0}
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
