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
import './composer.css'

interface Props {
  value: string
  onChange: (value: string) => void
  onSend: () => void
  onStop: () => void
  running: boolean
  stopping: boolean
  /** Sending, loading, or a turn runs: the text cannot go anywhere yet. */
  disabled: boolean
  placeholder: string
  error: string | null
  /** Shown just above the input (the slash-command palette). */
  above?: ReactNode
  /** Sees each key first; returning true means it was handled there. */
  onKeyDownFirst?: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean
}

const MAX_HEIGHT = 200

/**
 * Where the person writes. Enter sends, Shift+Enter breaks the line; Stop while a turn runs. Text
 * too large to send stays in the box with a sentence saying so, and Send waits until it fits.
 */
export function Composer(props: Props): JSX.Element {
  const { value, onChange, onSend, onStop, running, stopping, disabled, placeholder, error } = props
  const input = useRef<HTMLTextAreaElement>(null)
  const tooLarge = useMemo(() => messageSizeProblem(value), [value])
  const canSend = !disabled && value.trim() !== '' && tooLarge === null

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
    <div className="composer">
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
        <textarea
          ref={input}
          className="composer__input"
          data-testid="composer-input"
          rows={1}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          aria-label="Message"
          aria-invalid={tooLarge !== null}
          aria-describedby={tooLarge ? 'composer-too-large' : undefined}
        />
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
            onClick={() => canSend && onSend()}
            disabled={!canSend}
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
          {running ? 'Esc to stop' : 'Enter to send · Shift+Enter for a new line'}
        </div>
      )}
    </div>
  )
}
