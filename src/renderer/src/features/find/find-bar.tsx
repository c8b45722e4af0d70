import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import { ArrowDownIcon, ArrowUpIcon, CloseIcon } from '../../lib/icons'
import { MAX_MATCHES } from './find-match'
import { clearPaint, findRanges, firstInView, paintRanges, revealRange } from './find-highlights'
import { closeFind, useFind } from './find-store'
import { IconButton } from '../../ui/icon-button'
import './find.css'

/** The buttons that move to the match before or after the current one. */
const steps = [
  { name: 'previous', label: 'Previous match', keys: 'Shift+Enter', Icon: ArrowUpIcon, by: -1 },
  { name: 'next', label: 'Next match', keys: 'Enter', Icon: ArrowDownIcon, by: 1 }
] as const

// The transcript's rows: each child is one row (only those on screen or holding a hit).
const CONTENT = '[data-testid="transcript-rows"]'

/** "3 of 12", with a plus once the bound is reached. */
function countText(count: number, current: number, query: string): string {
  if (!query.trim()) return ''
  if (count === 0) return 'No results'
  return `${current + 1} of ${count}${count >= MAX_MATCHES ? '+' : ''}`
}

/**
 * Find in the conversation (Ctrl/Cmd+F): hits highlighted in the transcript, Enter or the arrows
 * move between them, Escape closes. A session opened from the sessions search lands here too,
 * with its search's words and the first hit shown.
 */
export function FindBar({
  sessionId,
  loaded
}: {
  /** The session the conversation shows. */
  sessionId: string | null
  /** Whether its whole transcript is in (not only its first screen). */
  loaded: boolean
}): JSX.Element | null {
  const { open, query, focusSignal, searchSignal, landing } = useFind((s) => s.state)
  const dispatch = useFind((s) => s.dispatch)
  const input = useRef<HTMLInputElement>(null)
  const [ranges, setRanges] = useState<Range[]>([])
  const [current, setCurrent] = useState(0)
  /** Which hit a new search shows once its hits are on the page; null once shown. */
  const pick = useRef<'first' | 'view' | null>(null)

  // A session opened from the sessions search: once its transcript is in (all of it, not only
  // its first screen: the hit may be older), find its words.
  useEffect(() => {
    if (!landing || landing.sessionId !== sessionId || !loaded) return
    dispatch({ type: 'open', query: landing.query, focus: false })
    dispatch({ type: 'landed' })
    pick.current = 'first'
  }, [landing, sessionId, loaded, dispatch])

  // Only a request to focus moves the caret: a landing opens the bar without taking it.
  useLayoutEffect(() => {
    if (focusSignal === 0) return
    input.current?.focus()
    input.current?.select()
  }, [focusSignal])

  useEffect(() => {
    if (pick.current !== 'first') pick.current = 'view'
  }, [searchSignal])

  // Hits are read from the page, so they are what the person sees; read again as it changes
  // (a reply streaming in, a card opened, older items revealed), at most once a frame.
  useEffect(() => {
    if (!open) return
    const root = document.querySelector(CONTENT)
    let frame = 0
    const measure = (): void => {
      frame = 0
      const found = root && query.trim() ? findRanges(root, query) : []
      setRanges(found)
      if (pick.current === null || found.length === 0) {
        setCurrent((at) => Math.min(at, found.length - 1))
        return
      }
      const chosen =
        pick.current === 'first'
          ? 0
          : firstInView(found, root?.closest('[data-testid="transcript"]') ?? null)
      pick.current = null
      setCurrent(chosen)
      const range = found[chosen]
      if (range) revealRange(range)
    }
    measure()
    const observer = new MutationObserver(() => {
      if (frame === 0) frame = requestAnimationFrame(measure)
    })
    if (root) observer.observe(root, { childList: true, subtree: true, characterData: true })
    return () => {
      observer.disconnect()
      if (frame !== 0) cancelAnimationFrame(frame)
    }
  }, [open, query, searchSignal, sessionId])

  useEffect(() => {
    if (!open) return clearPaint()
    paintRanges(ranges, current)
  }, [open, ranges, current])
  useEffect(() => clearPaint, [])

  if (!open) return null

  const step = (by: number): void => {
    if (ranges.length === 0) return
    const next = (Math.max(0, current) + by + ranges.length) % ranges.length
    setCurrent(next)
    const range = ranges[next]
    if (range) revealRange(range)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Enter') step(event.shiftKey ? -1 : 1)
    else if (event.key === 'Escape') closeFind()
    else return
    // Escape here closes the bar; it must not also stop the turn.
    event.preventDefault()
    event.stopPropagation()
  }

  return (
    <div className="find-bar" role="search" data-testid="find-bar">
      <input
        ref={input}
        className="find-bar__input"
        data-testid="find-input"
        aria-label="Find in the conversation"
        placeholder="Find in the conversation"
        value={query}
        onChange={(event) => dispatch({ type: 'query', query: event.target.value })}
        onKeyDown={onKeyDown}
      />
      <span className="find-bar__count" data-testid="find-count" aria-live="polite">
        {countText(ranges.length, Math.max(0, current), query)}
      </span>
      {steps.map(({ name, label, keys, Icon, by }) => (
        <IconButton
          key={name}
          className="find-bar__button"
          data-testid={`find-${name}`}
          label={label}
          title={`${label} (${keys})`}
          disabled={ranges.length === 0}
          onClick={() => step(by)}
          icon={<Icon size={14} />}
        />
      ))}
      <IconButton
        className="find-bar__button find-bar__close"
        data-testid="find-close"
        label="Close find"
        title="Close (Esc)"
        onClick={closeFind}
        icon={<CloseIcon size={14} />}
      />
    </div>
  )
}
