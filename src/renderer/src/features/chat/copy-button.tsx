import { useEffect, useRef, useState, type JSX } from 'react'
import { CheckIcon, CopyIcon } from '../../lib/icons'
import { copyText } from './copy-text'

interface Props {
  /** Read when clicked, so a streaming message copies what it holds then. */
  text: () => string
  /** What a screen reader announces: "Copy message", "Copy ts code". */
  label: string
  testId: string
  className?: string
  /** Shows "Copy" beside the icon (the code block header has room for it). */
  showText?: boolean
}

const CONFIRM_MS = 1_500

/**
 * A copy button with a brief "Copied" confirmation, announced to screen readers. When the
 * clipboard cannot be reached it says so beside the button instead of failing silently.
 */
export function CopyButton({ text, label, testId, className, showText }: Props): JSX.Element {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const [failure, setFailure] = useState<string | null>(null)
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])

  const copy = (): void => {
    void copyText(text()).then((problem) => {
      window.clearTimeout(timer.current)
      setFailure(problem)
      setState(problem === null ? 'copied' : 'failed')
      // The confirmation fades; a failure stays until the next try, so it can be read.
      if (problem === null) timer.current = window.setTimeout(() => setState('idle'), CONFIRM_MS)
    })
  }

  return (
    <span className={`copy-button${className ? ` ${className}` : ''}`} data-state={state}>
      <button
        type="button"
        className="copy-button__button"
        data-testid={testId}
        onClick={copy}
        title={state === 'copied' ? 'Copied' : label}
        // A button that shows its word names itself with that word first (WCAG 2.5.3), so a
        // person who says what they see reaches it: "Copied" while it confirms.
        aria-label={showText && state === 'copied' ? label.replace(/^Copy\b/, 'Copied') : label}
      >
        {state === 'copied' ? <CheckIcon size={14} /> : <CopyIcon size={14} />}
        {showText && <span>{state === 'copied' ? 'Copied' : 'Copy'}</span>}
      </button>
      {state === 'copied' && !showText && (
        <span className="copy-button__note" aria-hidden="true">
          Copied
        </span>
      )}
      <span className="copy-button__status" role="status">
        {state === 'copied' ? 'Copied' : ''}
      </span>
      {state === 'failed' && failure && (
        <span className="copy-button__failure" role="alert" data-testid="copy-failed">
          {failure}
        </span>
      )}
    </span>
  )
}
