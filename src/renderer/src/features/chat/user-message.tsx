import { useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import type { TranscriptItem } from '../../../../shared/domain'
import { PencilIcon } from '../../lib/icons'
import { RewindButton } from '../checkpoints'
import { ForkButton } from '../sessions'
import { resendFrom, showBranch, startEditing, stopEditing, useEditing } from './branch-actions'
import { useChat } from './chat-store'
import { MessageActions } from './message-actions'
import { AttachmentChips } from '../attachments'
import './user-message.css'

type UserItem = Extract<TranscriptItem, { kind: 'user' }>

interface Props {
  item: UserItem
  itemKey: string
  sessionId: string | null
}

/**
 * A person's message: the bubble, its actions (Copy, Edit, Rewind, Fork), and, when it was
 * edited, "‹ 2 / 2 ›" to move between its versions. Edit opens the text in place; sending it
 * starts a new branch from before this message, and the older one stays a click away.
 */
export function UserMessage({ item, itemKey, sessionId }: Props): JSX.Element {
  const editing = useEditing((s) => s.key === itemKey)
  const running = useChat((s) => s.state.running || s.state.sending)
  return (
    <div className="message-row" data-kind="user">
      {!editing && (
        <MessageActions text={item.text} side="user">
          <button
            type="button"
            className="message-actions__button"
            data-testid="edit-message"
            title={
              running ? 'Wait for the turn to end to edit' : 'Edit and send again (a new branch)'
            }
            aria-label="Edit this message and send it again"
            disabled={running}
            onClick={() => startEditing(itemKey)}
          >
            <PencilIcon size={14} />
          </button>
          {sessionId && <RewindButton sessionId={sessionId} itemKey={itemKey} text={item.text} />}
          {sessionId && <ForkButton sessionId={sessionId} itemKey={itemKey} />}
        </MessageActions>
      )}
      {editing ? (
        <MessageEditor itemKey={itemKey} text={item.text} />
      ) : (
        <div className="message-user" data-testid="message-user">
          {item.text}
          <AttachmentChips attachments={item.attachments} />
        </div>
      )}
      <BranchNav itemKey={itemKey} />
    </div>
  )
}

/** "‹ 2 / 3 ›" under a message that has other versions. */
function BranchNav({ itemKey }: { itemKey: string }): JSX.Element | null {
  const siblings = useChat((s) => s.state.branches[itemKey])
  const running = useChat((s) => s.state.running || s.state.sending)
  const [error, setError] = useState<string | null>(null)
  if (!siblings || siblings.length < 2) return null
  const at = siblings.indexOf(itemKey)
  const go = (to: string | undefined): void => {
    if (to) void showBranch(to).then(setError)
  }
  return (
    <div className="branch-nav" data-testid="branch-nav" aria-label="Versions of this message">
      <button
        type="button"
        className="branch-nav__step"
        data-testid="branch-previous"
        aria-label="Show the previous version"
        disabled={running || at <= 0}
        onClick={() => go(siblings[at - 1])}
      >
        ‹
      </button>
      <span className="branch-nav__count" data-testid="branch-count">
        {at + 1} / {siblings.length}
      </span>
      <button
        type="button"
        className="branch-nav__step"
        data-testid="branch-next"
        aria-label="Show the next version"
        disabled={running || at >= siblings.length - 1}
        onClick={() => go(siblings[at + 1])}
      >
        ›
      </button>
      {error && (
        <span className="branch-nav__error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}

/** The message's text in place: Enter (or Send) sends it as a new version, Escape cancels. */
function MessageEditor({ itemKey, text }: { itemKey: string; text: string }): JSX.Element {
  const [draft, setDraft] = useState(text)
  const [busy, setBusy] = useState(false)
  const error = useEditing((s) => s.error)
  const input = useRef<HTMLTextAreaElement>(null)
  useLayoutEffect(() => {
    const el = input.current
    if (!el) return
    el.focus()
    el.setSelectionRange(el.value.length, el.value.length)
  }, [])
  useLayoutEffect(() => {
    const el = input.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 320)}px`
  }, [draft])
  const send = (): void => {
    if (!draft.trim() || busy) return
    setBusy(true)
    void resendFrom(itemKey, draft).then((failed) => {
      setBusy(false)
      if (failed) useEditing.setState({ error: failed })
      else stopEditing()
    })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Escape') {
      // Cancels the edit only: the window's Escape (stop the turn) must not hear it.
      event.preventDefault()
      event.stopPropagation()
      stopEditing()
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      send()
    }
  }
  return (
    <div className="message-editor" data-testid="message-editor">
      <textarea
        ref={input}
        className="message-editor__input"
        data-testid="message-editor-input"
        aria-label="Edit your message"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        disabled={busy}
      />
      {error && (
        <p className="message-editor__error" role="alert" data-testid="message-editor-error">
          {error}
        </p>
      )}
      <div className="message-editor__bar">
        <span className="message-editor__hint">
          Sends from here as a new branch; the current one is kept.
        </span>
        <button type="button" className="button" onClick={stopEditing} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="message-editor-send"
          onClick={send}
          disabled={busy || !draft.trim()}
        >
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
    </div>
  )
}
