import { useState, type JSX } from 'react'
import type { ToolOutput } from '../../../../shared/domain'
import { terminalScreen } from '../../../../shared/terminal-screen'

const COLLAPSED_LINES = 12

interface CollapsibleProps {
  text: string
  className?: string
  testId?: string
}

/** A monospace block that folds after a dozen lines, with a "Show all" to unfold it. */
export function CollapsibleCode({ text, className, testId }: CollapsibleProps): JSX.Element {
  const [expanded, setExpanded] = useState(false)
  const lines = text.split('\n')
  const long = lines.length > COLLAPSED_LINES
  const shown = long && !expanded ? lines.slice(0, COLLAPSED_LINES).join('\n') : text
  return (
    <div className={`code-block${long && !expanded ? ' code-block--folded' : ''}`}>
      <pre className={className} data-testid={testId}>
        {shown}
      </pre>
      {long && (
        <button
          type="button"
          className="code-block__toggle"
          onClick={() => setExpanded((v) => !v)}
          data-testid="show-all-button"
        >
          {expanded ? 'Show less' : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  )
}

/**
 * A tool's output: its text blocks folded when long, its images inline at their natural size (up
 * to the column's width). `terminal` output is shown as the terminal finally showed it.
 */
export function ToolOutputView({
  output,
  terminal = false
}: {
  output: ToolOutput
  terminal?: boolean
}): JSX.Element {
  const joined = output.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
  const text = terminal ? terminalScreen(joined) : joined
  const images = output.content.flatMap((block) => (block.type === 'image' ? [block] : []))
  return (
    <>
      {(text || images.length === 0) && (
        <CollapsibleCode
          text={text || '(no output)'}
          className={`tool-output${output.isError ? ' tool-output--error' : ''}`}
          testId="tool-output"
        />
      )}
      {images.map((image, i) => (
        <img
          key={i}
          className="tool-output__image"
          src={`data:${image.mediaType};base64,${image.data}`}
          alt={`Image ${i + 1} returned by the tool`}
        />
      ))}
    </>
  )
}
