import {
  useLayoutEffect,
  useMemo,
  useRef,
  type JSX,
  type KeyboardEvent,
  type ReactNode
} from 'react'
import { messageSizeProblem } from '../../../../shared/contract/message-size'
import { ArrowUpIcon, StopIcon } from '../../lib/icons'
import type { ComposerAttach } from '../attachments'
import './composer.css'

interface Props {
  value: string
  onChange: (value: string) => void
  onSend: () => void
  onStop: () => void
  running: boolean
  stopping: boolean
  /** Loading: the text cannot go anywhere yet. */
  disabled: boolean
  /** A turn runs (or a message is on its way): Enter queues the text instead of sending it. */
  queueing?: boolean
  placeholder: string
  error: string | null
  /** Shown just above the input (the slash-command palette). */
  above?: ReactNode
  /** Sees each key first; returning true means it was handled there. */
  onKeyDownFirst?: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean
  /** Told where the caret is whenever the text or the selection changes (the `@` finder). */
  onCaret?: (caret: number, input: HTMLTextAreaElement) => void
  /** Images and files in the box: chips, Attach file, paste and drop (see features/attachments). */
  attach?: ComposerAttach
}

const MAX_HEIGHT = 200

/**
 * Where the person writes. Enter sends (queues while a turn runs: see queue-list), Shift+Enter
 * breaks the line; Stop while a turn runs. Text too large to send stays in the box with a
 * sentence saying so, and Send waits until it fits.
 */
export function Composer(props: Props): JSX.Element {
  const { value, onChange, onSend, onStop, running, stopping, disabled, placeholder, error } = props
  const input = useRef<HTMLTextAreaElement>(null)
  const tooLarge = useMemo(() => messageSizeProblem(value), [value])
  const filled = value.trim() !== '' || (props.attach?.count ?? 0) > 0
  const canSend = !disabled && filled && tooLarge === null
  // Queue and Send: either sends the text, and only when it can be sent.
  const sends = { onClick: () => canSend && onSend(), disabled: !canSend }

  // Grow with the text up to a limit, then scroll inside, so the transcript is not squeezed.
  useLayoutEffect(() => {
    const el = input.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`
  }, [value])

  // Give focus back once the turn ends, so the next message can follow at once; but never
  // take it from a field the person is using elsewhere (settings, the approval reason).
  useLayoutEffect(() => {
    const active = document.activeElement
    if (!disabled && (!active || active === document.body)) input.current?.focus()
  }, [disabled])

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (props.onKeyDownFirst?.(event)) return
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    if (canSend) onSend()
  }

  return (
    <div
      className={`composer${props.attach?.dragging ? ' composer--dragging' : ''}`}
      {...props.attach?.dropProps}
    >
      {error && (
        <p className="composer__error" role="alert" data-testid="send-error">
          {error}
        </p>
      )}
      {props.above}
      <div
        className={`composer__box${disabled ? ' composer__box--disabled' : ''}${
          tooLarge ? ' composer__box--too-large' : ''
        }`}
      >
        {props.attach?.chips}
        <textarea
          ref={input}
          className="composer__input"
          data-testid="composer-input"
          rows={1}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={props.attach?.onPaste}
          onSelect={(e) => props.onCaret?.(e.currentTarget.selectionStart, e.currentTarget)}
          disabled={disabled}
          aria-label="Message"
          aria-invalid={tooLarge !== null}
          aria-describedby={tooLarge ? 'composer-too-large' : undefined}
        />
        {running && props.queueing && value.trim() !== '' && (
          <button
            type="button"
            className="composer__queue"
            data-testid="queue-button"
            {...sends}
            title="Queue: sent when the turn ends (Enter)"
          >
            Queue
          </button>
        )}
        {props.attach?.button}
        {running ? (
          <button
            type="button"
            className="composer__stop"
            data-testid="stop-button"
            onClick={onStop}
            disabled={stopping}
            title="Stop (Esc)"
          >
            <StopIcon size={14} /> {stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            type="button"
            className="composer__send"
            data-testid="send-button"
            {...sends}
            title="Send (Enter)"
            aria-label="Send"
          >
            <ArrowUpIcon size={16} />
          </button>
        )}
      </div>
      {tooLarge ? (
        <p
          id="composer-too-large"
          className="composer__too-large"
          role="alert"
          data-testid="message-too-large"
        >
          {tooLarge}
        </p>
      ) : (
        <div className="composer__hint">
          {props.queueing
            ? 'Enter to queue · Esc to stop · Shift+Enter for a new line'
            : running
              ? 'Esc to stop'
              : 'Enter to send · Shift+Enter for a new line'}
        </div>
      )}
    </div>
  )
}
