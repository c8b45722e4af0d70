import { useEffect, type JSX } from 'react'
import { useAwaitingApproval, useVisibleApprovals } from '../approvals'
import './notifications.css'

/** The dot on a session's row while one of its tool calls waits for the person's approval. */
export function ApprovalDot({ sessionId }: { sessionId: string }): JSX.Element | null {
  const waiting = useAwaitingApproval(sessionId)
  if (!waiting) return null
  return (
    <span
      className="approval-dot"
      data-testid="session-approval-dot"
      role="img"
      aria-label="Waiting for your approval"
      title="Waiting for your approval"
    />
  )
}

const TITLE_DOT = '● '

/** The title as it should read: with the dot in front while an approval waits, else without. */
export function dottedTitle(title: string, waiting: boolean): string {
  const bare = title.startsWith(TITLE_DOT) ? title.slice(TITLE_DOT.length) : title
  return waiting ? `${TITLE_DOT}${bare}` : bare
}

/**
 * Puts a dot in front of the window's title while any session of this window waits for an
 * approval, so the taskbar or tab says so while the window is behind others.
 */
export function useTitleDot(): void {
  const waiting = useVisibleApprovals().length > 0
  useEffect(() => {
    document.title = dottedTitle(document.title, waiting)
    // The project window sets its title once; a change of title by it keeps the dot.
    const observer = new MutationObserver(() => {
      const next = dottedTitle(document.title, waiting)
      if (next !== document.title) document.title = next
    })
    const head = document.querySelector('title')
    if (head) observer.observe(head, { childList: true, characterData: true, subtree: true })
    return () => observer.disconnect()
  }, [waiting])
}
