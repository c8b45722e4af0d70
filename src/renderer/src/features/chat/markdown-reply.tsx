import type { JSX } from 'react'
import Markdown, { type Components, type Options } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { CodeBlock } from './code-block'

const remarkPlugins = [remarkGfm]

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
  /** Code highlighting once it has loaded (see code-highlighter.ts); none until then. */
  rehypePlugins: NonNullable<Options['rehypePlugins']>
}

/**
 * A reply's Markdown (GFM) as elements: the Markdown stack (react-markdown, remark, micromark)
 * is a chunk of its own, which a project window starts loading as it opens (see
 * message-assistant.tsx).
 */
export function MarkdownReply({ text, rehypePlugins }: Props): JSX.Element {
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
      {text}
    </Markdown>
  )
}
