import type { SearchResult } from '../../../shared/websearch'
import type { FoundResult } from './search-backends'

const MAX_PER_SESSION = 500
/**
 * The sessions whose results are kept, those that searched last: each held up to MAX_PER_SESSION
 * results until the core stopped, for every session that ever searched.
 */
export const MAX_SESSIONS = 16

/**
 * The results each session's searches returned, by handle: WebOpen takes a handle, so the model
 * picks a result rather than writing a URL. Handles are short (`r1`, `r2`…) and never reused.
 */
export class ResultHandles {
  /** The session that searched longest ago first. */
  private readonly sessions = new Map<
    string,
    { next: number; results: Map<string, SearchResult> }
  >()

  add(sessionId: string, found: readonly FoundResult[]): SearchResult[] {
    const session = this.sessions.get(sessionId) ?? { next: 1, results: new Map() }
    this.sessions.delete(sessionId)
    this.sessions.set(sessionId, session)
    for (const id of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break
      this.sessions.delete(id)
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
