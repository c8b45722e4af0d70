import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { offerDraft } from './draft-handoff'
import { addSession } from '../sessions'
import {
  initialRestoreState,
  restoreReducer,
  restoresFiles,
  rewindsConversation,
  type RestoreRequest,
  type RestoreState
} from './restore-reducer'

export const useRestore = createReducerStore(restoreReducer, initialRestoreState)

const dispatch = useRestore.getState().dispatch

/** Opens the dialog and asks the core what the restore would do. */
export async function openRestore(request: RestoreRequest): Promise<void> {
  dispatch({ type: 'open', request })
  try {
    const plan = await call('checkpoints.plan', {
      sessionId: request.sessionId,
      to:
        request.kind === 'rewind'
          ? { message: request.itemKey }
          : { checkpoint: request.checkpoint },
      ...(request.kind !== 'rewind' ? { files: request.files } : {})
    })
    // The person may have closed it, or opened another, meanwhile.
    if (useRestore.getState().state.request === request) dispatch({ type: 'planned', plan })
  } catch (error) {
    if (useRestore.getState().state.request === request) {
      dispatch({ type: 'failed', error: errorMessage(error) })
    }
  }
}

export function closeRestore(): void {
  dispatch({ type: 'close' })
}

/** Does what the dialog shows: the files put back, the conversation forked before the message. */
export async function confirmRestore(): Promise<void> {
  const state = useRestore.getState().state
  const { request, plan } = state
  if (!request || !plan || state.busy) return
  dispatch({ type: 'busy' })
  try {
    const checkpoint = request.kind === 'rewind' ? plan.checkpoint : request.checkpoint
    if (restoresFiles(state) && checkpoint) {
      await call('checkpoints.restore', {
        sessionId: request.sessionId,
        checkpoint,
        ...(request.kind !== 'rewind' ? { files: request.files } : {}),
        replaceChanged: state.replaceChanged,
        label: labelOf(request)
      })
    }
    if (request.kind === 'rewind' && rewindsConversation(state)) {
      const session = await call('session.fork', {
        sessionId: request.sessionId,
        itemKey: request.itemKey,
        before: true
      })
      offerDraft(session.id, request.text)
      addSession(session)
    }
    dispatch({ type: 'close' })
  } catch (error) {
    dispatch({ type: 'failed', error: errorMessage(error) })
  }
}

/** What the transcript says was restored, as a sentence. */
export function labelOf(request: RestoreRequest): string {
  switch (request.kind) {
    case 'rewind':
      return `Files restored to before “${shorten(request.text)}”`
    case 'revert':
      return `Reverted the changes of a ${request.tool} call`
    case 'undo':
      return `Undid: ${request.label}`
  }
}

function shorten(text: string): string {
  const line = text.trim().split('\n')[0] ?? ''
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

export type { RestoreState }
