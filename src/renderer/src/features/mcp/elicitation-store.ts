import type { ElicitAction } from '../../../../shared/elicitation'
import { call, onReconnect, subscribe } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { currentWorkspace, onWorkspaceOpened } from '../sessions'
import { elicitationReducer, initialElicitationState } from './elicitation-reducer'

export const useElicitations = createReducerStore(elicitationReducer, initialElicitationState)

const dispatch = useElicitations.getState().dispatch

/**
 * Sends the person's answer to a server's form. Content that does not fit is refused by the
 * main process with a sentence naming the field; the dialog then stays open and shows it.
 */
export async function answerElicitation(
  elicitationId: string,
  action: ElicitAction,
  content?: Record<string, unknown>
): Promise<void> {
  dispatch({ type: 'sending', elicitationId })
  try {
    await call('mcp.elicitation.answer', {
      elicitationId,
      action,
      ...(action === 'accept' ? { content } : {})
    })
    // Answered, or no longer waiting (the server gave up meanwhile): the dialog goes either way.
    dispatch({ type: 'resolved', elicitationId })
  } catch (error) {
    dispatch({ type: 'refused', elicitationId, text: errorMessage(error) })
  }
}

/** The person changed the form: the sentence about what they had typed before goes. */
export function editedElicitation(elicitationId: string): void {
  dispatch({ type: 'edited', elicitationId })
}

async function restore(workspace: string): Promise<void> {
  try {
    const { elicitations } = await call('mcp.elicitation.pending', { workspace })
    dispatch({ type: 'restored', workspace, elicitations })
  } catch {
    // The connection is down; the next reconnect asks again.
  }
}

let wired = false

/** Follows the requests as servers ask and settle them, and re-reads them after a reload. */
export function wireElicitations(): void {
  if (wired) return
  wired = true
  subscribe((event) => {
    if (event.event === 'mcp.elicitation.asked') {
      dispatch({ type: 'asked', elicitation: event.payload })
    } else if (event.event === 'mcp.elicitation.resolved') {
      dispatch({ type: 'resolved', elicitationId: event.payload.elicitationId })
    }
  })
  const now = currentWorkspace()
  if (now) void restore(now)
  onWorkspaceOpened((workspace) => void restore(workspace))
  onReconnect(() => {
    const workspace = currentWorkspace()
    if (workspace) void restore(workspace)
  })
}
