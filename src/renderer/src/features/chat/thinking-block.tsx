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
  return (
    <details className="reasoning-block" data-testid="thinking">
      <summary className="reasoning-block__summary">
        {streaming ? 'Thinking…' : 'Thinking'}
        {redacted > 0 && (
          <span className="reasoning-block__note">
            {' '}
            ({redacted} part{redacted === 1 ? '' : 's'} redacted by the provider)
          </span>
        )}
      </summary>
      <div className="reasoning-block__text" data-testid="thinking-text">
        {thinkingText(blocks)}
      </div>
    </details>
  )
})
