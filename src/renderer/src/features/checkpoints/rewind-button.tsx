import type { JSX } from 'react'
import { RewindIcon } from '../../lib/icons'
import { openRestore } from './restore-store'

interface Props {
  sessionId: string
  /** The user message's transcript key. */
  itemKey: string
  text: string
  disabled?: boolean
}

/** "Rewind": put the files, the conversation or both back to before this message. */
export function RewindButton({ sessionId, itemKey, text, disabled }: Props): JSX.Element {
  return (
    <button
      type="button"
      className="fork-button"
      data-testid="rewind-button"
      title="Rewind: files, conversation or both back to before this message"
      aria-label="Rewind to before this message"
      disabled={disabled}
      onClick={() => void openRestore({ kind: 'rewind', sessionId, itemKey, text })}
    >
      <RewindIcon size={14} />
    </button>
  )
}
