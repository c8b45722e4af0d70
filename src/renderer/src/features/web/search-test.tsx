import { useState, type JSX } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import type { RawWebsearch } from './search-model'

type TestResult = CallOutput<'websearch.test'>

/** Runs a query over the chain as drafted (saved or not) and shows what came back, or why not. */
export function SearchTest({ websearch }: { websearch: RawWebsearch }): JSX.Element {
  const [query, setQuery] = useState('open source desktop agent')
  const [running, setRunning] = useState(false)
  const [result, setResult] = useState<TestResult | null>(null)

  const run = async (): Promise<void> => {
    setRunning(true)
    setResult(null)
    try {
      setResult(await call('websearch.test', { websearch, query }))
    } catch (error) {
      setResult({ ok: false, error: errorMessage(error) })
    } finally {
      setRunning(false)
    }
  }

  return (
    <div className="search-test" data-testid="search-test">
      <div className="search-test__row">
        <input
          className="input"
          aria-label="Test query"
          data-testid="search-test-query"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && query.trim()) void run()
          }}
        />
        <button
          type="button"
          className="button"
          data-testid="search-test-button"
          disabled={running || !query.trim()}
          onClick={() => void run()}
        >
          {running ? 'Searching…' : 'Test'}
        </button>
      </div>
      {result && !result.ok && (
        <pre
          className="search-test__error field-error"
          role="alert"
          data-testid="search-test-error"
        >
          {result.error}
        </pre>
      )}
      {result?.ok && (
        <div className="search-test__ok" data-testid="search-test-results">
          <p className="field-ok">
            {result.results.length} {result.results.length === 1 ? 'result' : 'results'} from{' '}
            {result.backend}
            {result.failures.length > 0 && ` (after: ${result.failures.join('; ')})`}
          </p>
          <ol className="search-test__list">
            {result.results.map((r) => (
              <li key={r.handle} data-testid="search-test-result">
                <span className="search-test__title">{r.title || '(no title)'}</span>{' '}
                <span className="web-url mono">{r.url}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  )
}
