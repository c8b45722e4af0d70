import { useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react'
import { ArrowDownIcon } from '../../lib/icons'
import { RestoreDivider } from '../checkpoints/restore-divider'
import { ForkButton } from '../sessions/fork-button'
import { CompactionDivider } from './compaction-divider'
import { MessageActions } from './message-actions'
import { AssistantMessage } from './message-assistant'
import { InterruptedMark, RetryNotice } from './retry-notice'
import { ThinkingBlock } from './thinking-block'
import { ToolCard } from './tool-card'
import type { TranscriptEntry } from './transcript-reducer'
import { TRANSCRIPT_WINDOW, tailWindow, widenWindow } from './transcript-window'
import { TurnEnd } from './turn-end'
import { RegenerateButton } from './regenerate-button'
import { endedShort, TurnRecovery } from './turn-recovery'
import { UserMessage } from './user-message'
import { useFindReveal } from '../find/use-find-reveal'

const STICK_DISTANCE = 48
/** How close to the top scrolling adds the next window of older items. */
const EARLIER_DISTANCE = 300

/** Where the newest reply and turn end are: they get Regenerate, Retry and Continue. */
interface Latest {
  reply: string | null
  turnEnd: string | null
  running: boolean
}

function Item({
  entry,
  sessionId,
  latest
}: {
  entry: TranscriptEntry
  sessionId: string | null
  latest: Latest
}): JSX.Element {
  const { item } = entry
  // A message can start a fork of the session (see features/sessions), named by the core's key.
  const fork = sessionId ? <ForkButton sessionId={sessionId} itemKey={entry.key} /> : null
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} itemKey={entry.key} sessionId={sessionId} />
    case 'assistant':
      return (
        <div className="message-row" data-kind="assistant">
          {item.thinking && item.thinking.length > 0 && (
            <ThinkingBlock blocks={item.thinking} streaming={item.streaming && item.text === ''} />
          )}
          <AssistantMessage text={item.text} streaming={item.streaming} />
          {item.interrupted && <InterruptedMark />}
          {item.streaming && item.retry && <RetryNotice key={item.retry.attempt} {...item.retry} />}
          {!item.streaming && item.text && (
            <MessageActions text={item.text} side="assistant">
              {entry.key === latest.reply && !latest.running && <RegenerateButton />}
              {fork}
            </MessageActions>
          )}
        </div>
      )
    case 'tool':
      return <ToolCard call={item.call} sessionId={sessionId} />
    case 'turn-end':
      return (
        <TurnEnd item={item}>
          {entry.key === latest.turnEnd && !latest.running && endedShort(item) && <TurnRecovery />}
        </TurnEnd>
      )
    case 'compaction':
      return <CompactionDivider item={item} />
    case 'restore':
      return <RestoreDivider item={item} sessionId={sessionId} />
  }
}

/** The keys of the newest reply with text and of the turn end closing the transcript. */
function useLatest(entries: readonly TranscriptEntry[], running: boolean): Latest {
  return useMemo(() => {
    let reply: string | null = null
    for (let i = entries.length - 1; i >= 0 && reply === null; i--) {
      const entry = entries[i]
      if (entry?.item.kind === 'user') break
      if (entry?.item.kind === 'assistant' && entry.item.text) reply = entry.key
    }
    const last = entries.at(-1)
    return { reply, turnEnd: last?.item.kind === 'turn-end' ? last.key : null, running }
  }, [entries, running])
}

interface Props {
  sessionId: string | null
  entries: TranscriptEntry[]
  /** Shown after the items while the model has not produced anything yet. */
  thinking: boolean
  empty: JSX.Element | null
  /** Bumped when the person sends, to snap back to the bottom. */
  followSignal: number
  /** A turn runs (or is being sent): Regenerate, Retry and Continue wait. */
  running: boolean
}

/**
 * The scrolling transcript. It follows new content while the person is at the bottom and stays
 * put once they scroll up; a ResizeObserver catches growth that no prop change announces
 * (deferred Markdown renders, expanded cards).
 */
export function TranscriptView({
  sessionId,
  entries,
  thinking,
  empty,
  followSignal,
  running
}: Props): JSX.Element {
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const [away, setAway] = useState(false)
  // A new session or a fresh send snaps back to the bottom; reset during render, not in an effect.
  const followKey = `${sessionId ?? ''}:${followSignal}`
  const [lastFollowKey, setLastFollowKey] = useState(followKey)
  if (followKey !== lastFollowKey) {
    setLastFollowKey(followKey)
    setAway(false)
  }
  // Only the newest items are rendered at first (see transcript-window); reset per session.
  const [windowed, setWindowed] = useState({ sessionId, shown: TRANSCRIPT_WINDOW })
  if (windowed.sessionId !== sessionId) setWindowed({ sessionId, shown: TRANSCRIPT_WINDOW })
  // The find bar may need older items on the page: every item holding a hit.
  const find = useFindReveal(entries)
  const hold = useRef(false)
  useLayoutEffect(() => {
    hold.current = find.hold
  }, [find.hold])
  const { visible, hidden } = tailWindow(entries, Math.max(windowed.shown, find.shown))
  const latest = useLatest(entries, running)
  /** Distance from the bottom to keep while older items are added above. */
  const anchor = useRef<number | null>(null)
  const showEarlier = (): void => {
    const el = scroller.current
    if (el) anchor.current = el.scrollHeight - el.scrollTop
    setWindowed((w) => ({ ...w, shown: widenWindow(w.shown, entries.length) }))
  }

  useLayoutEffect(() => {
    const el = scroller.current
    if (el && anchor.current !== null) el.scrollTop = el.scrollHeight - anchor.current
    anchor.current = null
  }, [windowed.shown])

  const toBottom = (): void => {
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }

  useLayoutEffect(() => {
    stick.current = true
    toBottom()
  }, [followKey])

  useLayoutEffect(() => {
    if (stick.current && !hold.current) toBottom()
  }, [entries, thinking])

  useEffect(() => {
    const el = content.current
    if (!el) return
    const observer = new ResizeObserver(() => {
      if (stick.current && !hold.current) toBottom()
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const onScroll = (): void => {
    const el = scroller.current
    if (!el) return
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_DISTANCE
    stick.current = atBottom
    setAway(!atBottom)
    if (el.scrollTop < EARLIER_DISTANCE && hidden > 0 && anchor.current === null) showEarlier()
  }

  return (
    <div className="transcript">
      <div
        className="transcript__scroller"
        ref={scroller}
        onScroll={onScroll}
        data-testid="transcript"
      >
        <div className="transcript__content" ref={content}>
          {entries.length === 0 && empty}
          {hidden > 0 && (
            <button
              type="button"
              className="transcript__earlier"
              data-testid="transcript-earlier"
              onClick={showEarlier}
            >
              Show {hidden.toLocaleString('en-US')} earlier items
            </button>
          )}
          {visible.map((entry) => (
            <Item key={entry.key} entry={entry} sessionId={sessionId} latest={latest} />
          ))}
          {thinking && (
            <div className="thinking" aria-live="polite" data-testid="thinking">
              <span className="thinking__dots" aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              Working…
            </div>
          )}
        </div>
      </div>
      {away && (
        <button
          type="button"
          className="transcript__jump"
          onClick={() => {
            stick.current = true
            setAway(false)
            toBottom()
          }}
        >
          <ArrowDownIcon size={14} /> Jump to latest
        </button>
      )}
    </div>
  )
}
