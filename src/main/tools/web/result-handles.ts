import type { SearchResult } from '../../../shared/websearch'
import type { FoundResult } from './search-backends'

const MAX_PER_SESSION = 500

/**
 * The results each session's searches returned, by handle: WebOpen takes a handle, so the model
 * picks a result rather than writing a URL. Handles are short (`r1`, `r2`…) and never reused.
 */
export class ResultHandles {
  private readonly sessions = new Map<
    string,
    { next: number; results: Map<string, SearchResult> }
  >()

  add(sessionId: string, found: readonly FoundResult[]): SearchResult[] {
    let session = this.sessions.get(sessionId)
    if (!session) {
      session = { next: 1, results: new Map() }
      this.sessions.set(sessionId, session)
    }
    const added = found.map((result) => ({ handle: `r${session.next++}`, ...result }))
    for (const result of added) session.results.set(result.handle, result)
    // The oldest go first once a long session has searched a lot.
    for (const handle of session.results.keys()) {
      if (session.results.size <= MAX_PER_SESSION) break
      session.results.delete(handle)
    }
    return added
  }

  get(sessionId: string, handle: string): SearchResult | undefined {
    return this.sessions.get(sessionId)?.results.get(handle.trim())
  }
}
