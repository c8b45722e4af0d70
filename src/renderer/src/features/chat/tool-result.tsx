import { useState, type JSX } from 'react'
import type { ResultView, ToolOutput } from '../../../../shared/domain'
import { ToolOutputView } from './output-view'
import { DiffView } from '../../ui/diff-view'
import { FileListView, ImageView, MatchesView } from './result-views'
import { SpillNotice } from './spill-viewer'
import { WebPageView, WebResultsView } from './web-views'
import './result-views.css'

/** The section label above a result: what the view below shows. */
export function resultLabel(output: ToolOutput): string {
  if (output.isError) return 'Error'
  switch (output.display?.kind) {
    case 'diff':
      return 'Changes'
    case 'image':
      return 'Image'
    case 'files':
      return 'Files'
    case 'matches':
      return 'Matches'
    case 'listing':
      return 'Entries'
    case 'web-page':
      return 'Web page'
    case 'web-results':
      return 'Search results'
    default:
      return 'Output'
  }
}

/** The output without the cut marker, which the notice shows in words for people instead. */
function withoutMarker(output: ToolOutput): ToolOutput {
  if (!output.spill) return output
  const last = output.content.findLastIndex((block) => block.type === 'text')
  return { ...output, content: output.content.filter((_, i) => i !== last) }
}

function richView(output: ToolOutput): JSX.Element | null {
  const display = output.isError ? undefined : output.display
  switch (display?.kind) {
    case 'diff':
      return <DiffView display={display} />
    case 'image':
      return <ImageView display={display} content={output.content} />
    case 'files':
      return <FileListView paths={display.files} more={display.more} noun="files" />
    case 'matches':
      return <MatchesView display={display} />
    case 'listing':
      return <FileListView paths={display.entries} more={0} noun="entries" />
    case 'web-page':
      return <WebPageView display={display} />
    case 'web-results':
      return <WebResultsView display={display} />
    default:
      return null
  }
}

/**
 * A tool's result in the form that suits it: a diff, an image, a file list, grouped matches;
 * with the text the model was sent one click away. Other results, and errors, show as text, as a
 * terminal printed it when the tool's view says its output is a terminal's.
 */
export function ToolResultView({
  output,
  tool,
  view
}: {
  output: ToolOutput
  tool: string
  view: ResultView
}): JSX.Element {
  const [asText, setAsText] = useState(false)
  const rich = richView(output)
  const text = withoutMarker(output)
  const terminal = view !== 'display'
  return (
    <>
      {rich ?? <ToolOutputView output={text} terminal={terminal} />}
      {output.spill && <SpillNotice spill={output.spill} tool={tool} />}
      {rich && (
        <div className="result-text">
          <button
            type="button"
            className="link-button result-text__toggle"
            onClick={() => setAsText((v) => !v)}
            aria-expanded={asText}
            data-testid="result-as-text"
          >
            {asText ? 'Hide the text the model saw' : 'Show the text the model saw'}
          </button>
          {asText && <ToolOutputView output={text} terminal={terminal} />}
        </div>
      )}
    </>
  )
}
