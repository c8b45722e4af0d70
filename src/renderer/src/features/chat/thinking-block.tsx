import { memo, type JSX } from 'react'
import { thinkingText, type ThinkingBlock as Block } from '../../../../shared/reasoning'
import './thinking-block.css'

/**
 * The model's thinking before its reply, collapsed under "Thinking": it is long and mostly of
 * interest when the answer surprises, so it opens only when asked. Plain text, never Markdown:
 * it is the model's notes, not an answer meant to be formatted.
 */
export const ThinkingBlock = memo(function ThinkingBlock({
  blocks,
  streaming
}: {
  blocks: readonly Block[]
  streaming: boolean
}): JSX.Element {
  const redacted = blocks.filter((block) => block.type === 'redacted_thinking').length
  const text = thinkingText(blocks)
  return (
    <details className="reasoning-block" data-testid="thinking">
      <summary className="reasoning-block__summary">
        {streaming ? 'Thinking…' : 'Thinking'}
        {streaming && (
          // The latest words while it thinks, so the collapsed block still shows it at work.
          <span className="reasoning-block__latest" data-testid="thinking-latest">
            {latestWords(text)}
          </span>
        )}
        {redacted > 0 && (
          <span className="reasoning-block__note">
            {' '}
            ({redacted} part{redacted === 1 ? '' : 's'} redacted by the provider)
          </span>
        )}
      </summary>
      <div className="reasoning-block__text" data-testid="thinking-text">
        {text}
      </div>
    </details>
  )
})

const LATEST_CHARS = 90

/** The end of the thinking so far, on one line. */
function latestWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > LATEST_CHARS ? `…${flat.slice(-LATEST_CHARS)}` : flat
}
