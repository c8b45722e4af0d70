import type { JSX, ReactNode } from 'react'
import { CopyButton } from './copy-button'
import './message-actions.css'

interface Props {
  /** The message's Markdown source, as the model wrote it or the person typed it. */
  text: string
  /** Whose message: actions sit before a person's bubble and under a reply. */
  side: 'user' | 'assistant'
  /** More actions after Copy (Fork, Rewind, Edit, Regenerate…), in the same row and style. */
  children?: ReactNode
}

/**
 * The actions on one message, shown while the pointer is over it or focus is inside (so they
 * are reachable with Tab): Copy first, then whatever the caller adds.
 */
export function MessageActions({ text, side, children }: Props): JSX.Element {
  return (
    <div
      className={`message-actions message-actions--${side}`}
      role="toolbar"
      aria-label={side === 'user' ? 'Your message' : 'Reply'}
      data-testid="message-actions"
    >
      <CopyButton
        text={() => text}
        label={side === 'user' ? 'Copy your message' : 'Copy reply as Markdown'}
        testId="copy-message"
        className="message-actions__copy"
      />
      {children}
    </div>
  )
}
