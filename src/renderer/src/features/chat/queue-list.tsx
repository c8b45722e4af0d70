import { useState, type JSX, type KeyboardEvent } from 'react'
import { messageSizeProblem } from '../../../../shared/contract/message-size'
import { PencilIcon, TrashIcon } from '../../lib/icons'
import { useChat, useQueue } from './chat-store'
import { queueHold, turnOutcome, type QueueHold, type QueuedMessage } from './queue-reducer'
import { sendQueuedNow } from './queue-runner'
import { IconButton } from '../../ui/icon-button'
import './queue-list.css'

const dispatch = useQueue.getState().dispatch

const holdText: Record<QueueHold, string> = {
  stopped: 'The turn was stopped, so the queue waits. Send now sends a message; the rest follow.',
  failed: 'The turn failed, so the queue waits. Send now sends a message; the rest follow.',
  error: 'The first message could not be sent. Send now tries again; Edit or Remove changes it.',
  editing: 'The queue waits while you edit.'
}

/** A queued message's Edit and Remove, each an icon. */
const itemActions = [
  { name: 'edit', action: 'edit-start', title: 'Edit', Icon: PencilIcon },
  { name: 'remove', action: 'remove', title: 'Remove', Icon: TrashIcon }
] as const

function EditField({ sessionId, item }: { sessionId: string; item: QueuedMessage }): JSX.Element {
  const [text, setText] = useState(item.text)
  const tooLarge = messageSizeProblem(text)
  const canSave = text.trim() !== '' && tooLarge === null
  const save = (): void => {
    if (canSave) dispatch({ type: 'edit-save', sessionId, id: item.id, text })
  }
  const cancel = (): void => dispatch({ type: 'edit-cancel', sessionId })
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.nativeEvent.isComposing) return
    if (event.key === 'Escape') {
      // Escape here leaves the edit; it must not also stop the turn.
      event.preventDefault()
      event.stopPropagation()
      cancel()
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault()
      save()
    }
  }
  return (
    <div className="queue__edit">
      <textarea
        className="queue__edit-input"
        data-testid="queued-edit-input"
        aria-label="Edit the queued message"
        value={text}
        rows={2}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {tooLarge && (
        <p className="queue__error" role="alert">
          {tooLarge}
        </p>
      )}
      <div className="queue__buttons">
        <button type="button" className="queue__button" onClick={cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="queue__button queue__button--primary"
          data-testid="queued-save"
          disabled={!canSave}
          onClick={save}
        >
          Save
        </button>
      </div>
    </div>
  )
}

/**
 * The messages typed while a turn runs, above the message box: each can be edited, removed or
 * sent now (which stops the turn first). Says why the queue waits when it does.
 */
export function QueueList({ sessionId }: { sessionId: string | null }): JSX.Element | null {
  const queue = useQueue((s) => (sessionId ? s.state.sessions[sessionId] : undefined))
  const outcome = useChat((s) => turnOutcome(s.state.entries))
  const idle = useChat((s) => !s.state.running && !s.state.sending)
  if (!sessionId || !queue) return null
  const hold = idle ? queueHold(queue, outcome) : null
  return (
    <section className="queue" aria-label="Queued messages" data-testid="queue">
      {hold && (
        <p className="queue__hold" data-testid="queue-hold" role="status">
          {holdText[hold]}
        </p>
      )}
      <ol className="queue__items">
        {queue.items.map((item, index) => {
          const sending = queue.inFlight === item.id
          const waitingForStop = queue.sendNow === item.id
          const label = `queued message ${index + 1}`
          return (
            <li key={item.id} className="queue__item" data-testid="queued-message">
              {queue.editing === item.id ? (
                <EditField sessionId={sessionId} item={item} />
              ) : (
                <>
                  <div className="queue__row">
                    <span className="queue__badge">
                      {sending ? 'Sending…' : waitingForStop ? 'Next' : 'Queued'}
                    </span>
                    <span className="queue__text" data-testid="queued-text">
                      {item.text}
                    </span>
                    <div className="queue__buttons">
                      <button
                        type="button"
                        className="queue__button"
                        data-testid="queued-send-now"
                        disabled={sending || waitingForStop}
                        onClick={() => sendQueuedNow(sessionId, item.id)}
                        title="Stop the running turn and send this message at once"
                        aria-label={`Send now: ${label}`}
                      >
                        Send now
                      </button>
                      {itemActions.map(({ name, action, title, Icon }) => (
                        <IconButton
                          key={name}
                          className="queue__icon"
                          data-testid={`queued-${name}`}
                          disabled={sending}
                          onClick={() => dispatch({ type: action, sessionId, id: item.id })}
                          title={title}
                          label={`${title} ${label}`}
                          icon={<Icon size={14} />}
                        />
                      ))}
                    </div>
                  </div>
                  {item.error && (
                    <p className="queue__error" role="alert" data-testid="queued-error">
                      Not sent: {item.error}
                    </p>
                  )}
                </>
              )}
            </li>
          )
        })}
      </ol>
    </section>
  )
}
