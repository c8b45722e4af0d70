import { useState, type JSX } from 'react'
import type { ToolDisplay } from '../../../../shared/domain'
import { formatCount } from '../../lib/format'
import { AlertIcon } from '../../lib/icons'
import './web-views.css'

type Display<K extends ToolDisplay['kind']> = Extract<ToolDisplay, { kind: K }>

/** Lines of a page shown before "Show all": a long page would bury the transcript. */
const FOLDED_LINES = 30

/** Says, before anything else, that what follows came from a third party. */
function ExternalBadge(): JSX.Element {
  return (
    <span
      className="badge badge--amber web-external"
      data-testid="external-badge"
      title="Written by a third party, not by the model or this app: the model is told to treat it as data, not instructions."
    >
      <AlertIcon size={11} /> External content
    </span>
  )
}

// URLs are shown as text, never as links: a click must not navigate the app's own window.
function SourceUrl({ url, testId }: { url: string; testId: string }): JSX.Element {
  return (
    <span className="web-url mono" title={url} data-testid={testId}>
      {url}
    </span>
  )
}

/** WebFetch and WebOpen: the page's readable text, with where it came from. */
export function WebPageView({ display }: { display: Display<'web-page'> }): JSX.Element {
  const [all, setAll] = useState(false)
  const lines = display.text.split('\n')
  const shown = all ? lines : lines.slice(0, FOLDED_LINES)
  const redirected = display.finalUrl !== display.url
  return (
    <div className="result-frame web-card" data-testid="web-page-view">
      <div className="web-card__head">
        <div className="web-card__title-row">
          <ExternalBadge />
          <span className="web-card__title">{display.title ?? 'Web page'}</span>
          <span className="badge badge--neutral">{display.contentType}</span>
        </div>
        <SourceUrl url={display.finalUrl} testId="web-page-url" />
        {redirected && <span className="web-card__sub">Redirected from {display.url}</span>}
      </div>
      <div className="web-card__text" data-testid="web-page-text">
        {shown.join('\n') || <span className="muted">The page has no text.</span>}
      </div>
      {!all && lines.length > FOLDED_LINES && (
        <button type="button" className="result-more" onClick={() => setAll(true)}>
          Show {formatCount(lines.length - FOLDED_LINES)} more lines
        </button>
      )}
      {display.cut && <div className="result-frame__note">Not the whole page: {display.cut}.</div>}
    </div>
  )
}

/** WebSearch: each result with its handle, title, source URL and snippet. */
export function WebResultsView({ display }: { display: Display<'web-results'> }): JSX.Element {
  return (
    <div className="result-frame web-card" data-testid="web-results-view">
      <div className="web-card__head">
        <div className="web-card__title-row">
          <ExternalBadge />
          <span className="web-card__title">Results for “{display.query}”</span>
        </div>
        <span className="web-card__sub">
          {formatCount(display.results.length)} from {display.backend}
        </span>
      </div>
      {display.results.length === 0 ? (
        <div className="result-frame__empty">No results.</div>
      ) : (
        <ol className="web-results">
          {display.results.map((result) => (
            <li key={result.handle} className="web-result" data-testid="web-result">
              <div className="web-result__top">
                <span className="web-result__handle mono" title="What the model passes to WebOpen">
                  {result.handle}
                </span>
                <span className="web-result__title">{result.title || '(no title)'}</span>
              </div>
              <SourceUrl url={result.url} testId="web-result-url" />
              {result.snippet && <p className="web-result__snippet">{result.snippet}</p>}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
