import { memo, useDeferredValue, type JSX } from 'react'
import Markdown, { type Components } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import remarkGfm from 'remark-gfm'
import { CodeBlock } from './code-block'
import 'highlight.js/styles/github.css'
import './markdown.css'

const remarkPlugins = [remarkGfm]
// Unknown fence languages stay plain instead of being guessed (guessing flickers while streaming).
const rehypePlugins = [
  [rehypeHighlight, { detect: false }] as [typeof rehypeHighlight, { detect: boolean }]
]

const components: Components = {
  // Links leave the app: a click must never navigate the window away from the project.
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // Fenced code gets a header with its language and a Copy button (see code-block.tsx).
  pre: CodeBlock,
  table: ({ children }) => (
    <div className="markdown__table">
      <table>{children}</table>
    </div>
  )
}

interface Props {
  text: string
  streaming: boolean
}

/** A model reply as Markdown (GFM, highlighted code), with a cursor while it streams. */
export const AssistantMessage = memo(function AssistantMessage({
  text,
  streaming
}: Props): JSX.Element {
  // Parsing Markdown on every delta is the costly part; let React skip stale renders.
  const shown = useDeferredValue(text)
  return (
    <div
      className={`message-assistant markdown${streaming ? ' message-assistant--streaming' : ''}`}
      data-testid="message-assistant"
      data-streaming={streaming ? 'true' : 'false'}
    >
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {shown}
      </Markdown>
    </div>
  )
})
