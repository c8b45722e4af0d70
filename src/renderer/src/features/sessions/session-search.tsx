import { useEffect, useState, type JSX } from 'react'
import { searchSessions } from './session-actions'

const SEARCH_DELAY_MS = 150

/** The search box over the folder's recorded sessions: titles and message text. */
export function SessionSearch(): JSX.Element {
  const [query, setQuery] = useState('')
  useEffect(() => {
    // Ask once typing pauses, not at every key.
    const timer = setTimeout(() => void searchSessions(query), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [query])
  return (
    <div className="session-search">
      <input
        type="search"
        className="session-search__input"
        data-testid="session-search"
        placeholder="Search sessions"
        aria-label="Search sessions by their text"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setQuery('')}
      />
    </div>
  )
}
