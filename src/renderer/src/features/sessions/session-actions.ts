import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { useSessions } from './sessions-store'

const dispatch = useSessions.getState().dispatch

/** What went wrong, for the sidebar's error line; null when the call worked. */
type Outcome = string | null

async function attempt(fn: () => Promise<void>): Promise<Outcome> {
  try {
    await fn()
    return null
  } catch (error) {
    return errorMessage(error)
  }
}

export function renameSession(sessionId: string, title: string): Promise<Outcome> {
  return attempt(async () => {
    const session = await call('session.rename', { sessionId, title })
    dispatch({ type: 'session-updated', session })
  })
}

/** With `checkpoints`, the checkpoints its turns took go too (Rewind then cannot use them). */
export function deleteSession(sessionId: string, checkpoints = false): Promise<Outcome> {
  return attempt(async () => {
    await call('session.delete', { sessionId, ...(checkpoints ? { checkpoints } : {}) })
    dispatch({ type: 'deleted', sessionId })
  })
}

/** Searches the folder's recorded sessions; a blank query shows the whole list again. */
export async function searchSessions(query: string): Promise<void> {
  dispatch({ type: 'search', query })
  const workspace = useSessions.getState().state.workspace
  if (!workspace || !query.trim()) return
  try {
    const { hits } = await call('session.search', { workspace, query })
    dispatch({
      type: 'search-results',
      query,
      hits: hits.map((hit) => ({ id: hit.session.id, snippet: hit.snippet }))
    })
  } catch {
    dispatch({ type: 'search-results', query, hits: [] })
  }
}

/** A new session holding the conversation up to the item; it is selected. */
export function forkSession(sessionId: string, itemKey: string): Promise<Outcome> {
  return attempt(async () => {
    const session = await call('session.fork', { sessionId, itemKey })
    dispatch({ type: 'created', session })
  })
}

/** Saves the session as a file through the browser's download. */
export function downloadSession(sessionId: string, format: 'jsonl' | 'md'): Promise<Outcome> {
  return attempt(async () => {
    const { fileName, text } = await call('session.export', { sessionId, format })
    const type = format === 'md' ? 'text/markdown' : 'application/x-ndjson'
    const url = URL.createObjectURL(new Blob([text], { type }))
    const link = document.createElement('a')
    link.href = url
    link.download = fileName
    link.click()
    // The click has started the download; the object URL is no longer needed after this turn.
    setTimeout(() => URL.revokeObjectURL(url), 0)
  })
}
