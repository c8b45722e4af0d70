import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { applySessionUpdate, currentSession } from '../sessions'

/**
 * Turns planning mode on or off for a session: while on, the model is offered only read-only
 * tools and the gate refuses anything else. Resolves with what went wrong, or null.
 */
export async function setPlanning(sessionId: string, planning: boolean): Promise<string | null> {
  try {
    const session = await call('session.setPlanning', { sessionId, planning })
    applySessionUpdate(session)
    return null
  } catch (error) {
    return `Planning mode could not be ${planning ? 'turned on' : 'left'}: ${errorMessage(error)}`
  }
}

/**
 * Flips planning mode for the selected session (for a `/plan` command in the composer); `on`
 * forces a side. Resolves with what went wrong, or null.
 */
export function togglePlanning(on?: boolean): Promise<string | null> {
  const session = currentSession()
  if (!session) return Promise.resolve('No session is open.')
  return setPlanning(session.id, on ?? !session.planning)
}
