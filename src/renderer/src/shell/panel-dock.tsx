import { useLayoutEffect, useRef, useState, type JSX } from 'react'
import { useShownSessionId } from '../features/chat'
import { JobMonitor } from '../features/jobs'
import { TodoPanel } from '../features/todo'
import type { PanelId } from '../app/layout-model'
import { bringPanelToFront } from '../app/layout-store'
import { dismissPanels } from './overlay-dismiss'

const names: Record<PanelId, string> = { plan: 'Plan', jobs: 'Jobs' }

/**
 * How far above the window's bottom a floating dock stops: at the transcript's bottom, so the
 * message box and its Send button stay uncovered while a panel floats over the conversation.
 */
function useClearOfComposer(dock: { current: HTMLDivElement | null }, floating: boolean): number {
  const [bottom, setBottom] = useState(0)
  useLayoutEffect(() => {
    const body = dock.current?.parentElement
    const transcript = body?.querySelector('.chat .transcript')
    if (!floating || !body || !transcript) return
    const measure = (): void => {
      const gap = body.getBoundingClientRect().bottom - transcript.getBoundingClientRect().bottom
      setBottom(Math.max(0, Math.round(gap)))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(body)
    observer.observe(transcript)
    return () => observer.disconnect()
  }, [dock, floating])
  return bottom
}

/**
 * The plan and the job monitor in one column when there is no room for each beside the chat:
 * tabs when both are open, and floating over the chat's right edge (`overlay`) when even one
 * column would squeeze it. Floating, it dims the conversation it leaves uncovered (a click there
 * puts the panels away, as Escape does) and stops short of the header and the message box.
 */
export function PanelDock({
  place,
  open,
  front,
  width
}: {
  place: 'tabs' | 'overlay'
  open: PanelId[]
  front: PanelId
  width: number
}): JSX.Element | null {
  const dock = useRef<HTMLDivElement>(null)
  const bottom = useClearOfComposer(dock, place === 'overlay')
  const sessionId = useShownSessionId()
  const shown = open.includes(front) ? front : open[0]
  if (!shown) return null
  const floating = place === 'overlay'
  return (
    <>
      {floating && (
        <button
          type="button"
          className="panel-dock__scrim"
          style={{ bottom }}
          tabIndex={-1}
          aria-label={`Close the ${open.map((id) => names[id].toLowerCase()).join(' and ')}`}
          onClick={() => dismissPanels(open)}
          data-testid="panel-scrim"
        />
      )}
      <div
        ref={dock}
        className={`panel-dock panel-dock--${place}`}
        style={floating ? { width, bottom } : { width }}
        data-testid="panel-dock"
        data-place={place}
      >
        {open.length > 1 && (
          <div className="panel-dock__tabs" role="tablist" aria-label="Side panels">
            {open.map((id) => (
              <button
                key={id}
                type="button"
                role="tab"
                id={`panel-tab-${id}`}
                aria-selected={id === shown}
                aria-controls="panel-dock-body"
                className={`panel-dock__tab${id === shown ? ' panel-dock__tab--front' : ''}`}
                onClick={() => bringPanelToFront(id)}
                data-testid="panel-tab"
              >
                {names[id]}
              </button>
            ))}
          </div>
        )}
        <div
          className="panel-dock__body"
          id="panel-dock-body"
          role={open.length > 1 ? 'tabpanel' : undefined}
          aria-labelledby={open.length > 1 ? `panel-tab-${shown}` : undefined}
        >
          {shown === 'plan' ? <TodoPanel sessionId={sessionId} /> : <JobMonitor />}
        </div>
      </div>
    </>
  )
}
