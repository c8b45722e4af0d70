import { memo, useDeferredValue, type JSX } from 'react'
import { lazyPart } from '../../lib/lazy-part'
import { useHighlightPlugins } from './code-highlighter'
import './markdown.css'

// The Markdown stack is a large share of the window and only replies need it: a chunk of its own,
// which a project window asks for as it opens (preloadReplies), so it is there by the time a
// session's replies are, and a welcome screen or a new session never waits on it.
/** A reply as its own text, one paragraph as written: while the Markdown loads, or if it cannot. */
function PlainReply({ text }: { text: string }): JSX.Element {
  return <p className="message-assistant__plain">{text}</p>
}

const MarkdownReply = lazyPart(
  () => import('./markdown-reply').then((module) => module.MarkdownReply),
  { loading: PlainReply, failed: PlainReply }
)

/** Starts loading what replies are rendered with; a window that shows a project calls it early. */
export function preloadReplies(): void {
  void MarkdownReply.load()
}

interface Props {
  text: string
  streaming: boolean
}

/**
 * A model reply as Markdown (GFM, code highlighted once the highlighter has loaded), with a cursor
 * while it streams. Should the Markdown not have arrived yet, the reply shows as its plain text
 * in the same place, as a paragraph of the reply would.
 */
export const AssistantMessage = memo(function AssistantMessage({
  text,
  streaming
}: Props): JSX.Element {
  // Parsing Markdown on every delta is the costly part; let React skip stale renders.
  const shown = useDeferredValue(text)
  const rehypePlugins = useHighlightPlugins(shown)
  return (
    <div
      className={`message-assistant markdown${streaming ? ' message-assistant--streaming' : ''}`}
      data-testid="message-assistant"
      data-streaming={streaming ? 'true' : 'false'}
    >
      <MarkdownReply text={shown} rehypePlugins={rehypePlugins} />
    </div>
  )
})
