import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type JSX } from 'react'
import { ArrowDownIcon } from '../../lib/icons'
import { RestoreDivider } from '../checkpoints'
import { ForkButton } from '../sessions'
import { CompactionDivider } from './compaction-divider'
import { MessageActions } from './message-actions'
import { AssistantMessage } from './message-assistant'
import { InterruptedMark, RetryNotice } from './retry-notice'
import { ThinkingBlock } from './thinking-block'
import { ToolCard } from './tool-card'
import { ToolGroup } from './tool-group'
import type { TranscriptEntry } from './transcript-reducer'
import { GROUP_ROW_SIZE, rowIndexesOf, transcriptRows, type EntryRow } from './transcript-rows'
import { estimateRowSize, keepFromBottom, withPinned } from './transcript-window'
import { TurnEnd } from './turn-end'
import { RegenerateButton } from './regenerate-button'
import { endedShort, TurnRecovery } from './turn-recovery'
import { UserMessage } from './user-message'
import { useFindReveal } from '../find'
import { useReadingAnchor } from './use-reading-anchor'

const STICK_DISTANCE = 48
/** Rows rendered beyond the screen on each side, so a quick scroll does not show a gap. */
const OVERSCAN = 6

/** Where the newest reply and turn end are: they get Regenerate, Retry and Continue. */
interface Latest {
  reply: string | null
  turnEnd: string | null
  running: boolean
}

function Item({
  row: { entry, chips },
  sessionId,
  latest
}: {
  row: EntryRow
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
      return <ToolCard call={item.call} sessionId={sessionId} chips={chips} />
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
 * The scrolling transcript, virtualized: only the rows on screen (and those holding a find hit)
 * are in the page, each measured once rendered, so a session of thousands of items costs what a
 * screenful does. It follows new content while the person is at the bottom and stays put once
 * they scroll up; a ResizeObserver catches growth that no prop change announces (deferred
 * Markdown renders, expanded cards), and rows that change height above the screen are
 * compensated by the virtualizer, so the reading place does not jump.
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
  // The find bar needs the rows holding its hits in the page, wherever they are.
  const find = useFindReveal(entries)
  const hold = useRef(false)
  useLayoutEffect(() => {
    hold.current = find.hold
  }, [find.hold])
  const latest = useLatest(entries, running)
  // Entries become display rows: read-only runs folded, empty steps left out (transcript-rows).
  const shown = useMemo(() => transcriptRows(entries), [entries])
  const pinned = useMemo(
    () => rowIndexesOf(shown, entries, find.pinned),
    [shown, entries, find.pinned]
  )
  const rangeExtractor = useCallback(
    (range: Range): number[] => withPinned(defaultRangeExtractor(range), pinned, range.count),
    [pinned]
  )
  // The virtualizer hands back fresh functions each render; the view is left unmemoized for it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => {
      const row = shown[index]
      if (!row) return 40
      return row.kind === 'group' ? GROUP_ROW_SIZE : estimateRowSize(row.entry.item)
    },
    getItemKey: (index) => shown[index]?.key ?? index,
    overscan: OVERSCAN,
    rangeExtractor,
    // A session opens at its newest items: start the reckoning at the bottom, not the top.
    initialOffset: () => Number.MAX_SAFE_INTEGER
  })

  /** Distance from the bottom at the last scroll, kept when older items come in above. */
  const fromBottom = useRef(0)
  const firstKey = useRef<string | undefined>(undefined)
  useLayoutEffect(() => {
    const first = entries[0]?.key
    const el = scroller.current
    // The rest of a session loaded after its first screen lands above what is shown.
    if (el && firstKey.current !== undefined && first !== firstKey.current && !stick.current) {
      el.scrollTop = keepFromBottom(el.scrollHeight, fromBottom.current, el.clientHeight)
    }
    firstKey.current = first
  }, [entries])

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

  // A panel opening beside the transcript rewraps it: keep the line being read (layout, item 2).
  const reading = useReadingAnchor(scroller, content, () => !stick.current && !hold.current)
  const lastTop = useRef(0)
  const onScroll = (): void => {
    const el = scroller.current
    if (!el) return
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight
    fromBottom.current = distance
    const atBottom = distance < STICK_DISTANCE
    // Only a scroll up lets go of the bottom: content that grew before this event was delivered
    // (a finished command's result laid out) moved the bottom away, not the reader.
    const up = el.scrollTop < lastTop.current
    lastTop.current = el.scrollTop
    stick.current = atBottom || (stick.current && !up)
    setAway(!stick.current)
    reading.onScroll()
  }

  const rows = virtualizer.getVirtualItems()
  return (
    <div className="transcript">
      <div
        className="transcript__scroller"
        ref={scroller}
        onScroll={onScroll}
        data-testid="transcript"
        data-items={entries.length}
      >
        <div className="transcript__content" ref={content}>
          {entries.length === 0 && empty}
          <div
            className="transcript__rows"
            data-testid="transcript-rows"
            style={{ height: virtualizer.getTotalSize() }}
          >
            {rows.map((row) => {
              const entry = shown[row.index]
              if (!entry) return null
              return (
                <div
                  key={row.key}
                  className="transcript__row"
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  {entry.kind === 'group' ? (
                    <ToolGroup row={entry} sessionId={sessionId} />
                  ) : (
                    <Item row={entry} sessionId={sessionId} latest={latest} />
                  )}
                </div>
              )
            })}
          </div>
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
