import type { AnyEvent, CallOutput } from '../../../../shared/contract'
import { attachmentsProblem, type Attachment } from '../../../../shared/attachments'
import { messageSizeProblem } from '../../../../shared/contract/message-size'
import type { ModelRef } from '../../../../shared/domain'
import type { ModelInfo } from '../../../../shared/models'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { createReducerStore } from '../../lib/reducer-store'
import { restoreApprovals } from '../approvals'
import { applySessionUpdate } from '../sessions'
import { setPlan } from '../todo'
import { initialModelsState, modelsReducer } from './models-reducer'
import { loadQueue, saveQueue } from './queue-persist'
import { queueReducer } from './queue-reducer'
import { chatReducer, initialChatState, isBusy, snapshotEntries } from './transcript-reducer'
import { FIRST_SCREEN_ITEMS } from './transcript-window'

export const useChat = createReducerStore(chatReducer, initialChatState)
export const useModels = createReducerStore(modelsReducer, initialModelsState)
/** Messages typed while a turn runs, by session (see queue-runner for when they are sent). */
export const useQueue = createReducerStore(queueReducer, loadQueue())
useQueue.subscribe((store) => saveQueue(store.state))

const dispatch = useChat.getState().dispatch

/**
 * Shows `sessionId` and loads its snapshot; `force` re-reads it (after a reconnect). A long
 * session comes in two reads: its newest items first, so the first screen paints at once, then
 * the whole of it once that screen is up.
 */
export async function loadSession(sessionId: string, force = false): Promise<void> {
  dispatch({ type: 'select', sessionId, reload: force })
  try {
    const first = await call('session.get', { sessionId, tail: FIRST_SCREEN_ITEMS })
    applySnapshot(sessionId, first)
    if ((first.total ?? 0) <= first.transcript.length) return
    await nextPaint()
    // Still the session shown: a click elsewhere meanwhile leaves this one.
    if (useChat.getState().state.sessionId !== sessionId) return
    applySnapshot(sessionId, await call('session.get', { sessionId }))
  } catch (error) {
    dispatch({ type: 'load-failed', sessionId, error: errorMessage(error) })
  }
}

/** Resolves after the next frame has painted. */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

function applySnapshot(sessionId: string, snapshot: CallOutput<'session.get'>): void {
  dispatch({
    type: 'loaded',
    sessionId,
    entries: snapshotEntries(snapshot.transcript, snapshot.keys),
    running: snapshot.session.running,
    branches: Object.fromEntries(snapshot.branches.map((b) => [b.key, b.siblings])),
    earlier: Math.max(0, (snapshot.total ?? 0) - snapshot.transcript.length)
  })
  applySessionUpdate(snapshot.session)
  setPlan(sessionId, snapshot.todos)
  restoreApprovals(sessionId, snapshot.pendingApprovals)
}

export function applyChatEvent(event: AnyEvent): void {
  if (event.event === 'branch.selected') {
    // Another window showed another version of a message: show the same conversation. This
    // window's own choice is already being reloaded (the view is loading then).
    const { sessionId, status } = useChat.getState().state
    if (sessionId === event.payload.sessionId && status === 'ready') {
      void loadSession(sessionId, true)
    }
    return
  }
  dispatch({ type: 'event', event })
}

/** Reads the shown session again (after a reconnect: what happened meanwhile was missed). */
export function reloadShownSession(): void {
  const { sessionId } = useChat.getState().state
  if (sessionId) void loadSession(sessionId, true)
}

/** The session the conversation shows (or is loading); null before one is selected. */
export function useShownSessionId(): string | null {
  return useChat((s) => s.state.sessionId)
}

/** Whether the shown session's transcript is in, all of it (not only its first screen). */
export function useWholeTranscriptLoaded(): boolean {
  return useChat((s) => s.state.status === 'ready' && s.state.earlier === 0)
}

/** The models the providers offer, as last listed. */
export function useAvailableModels(): ModelInfo[] {
  return useModels((s) => s.state.models)
}

/** The model a session gets when none is chosen for it. */
export function useDefaultModel(): ModelRef | null {
  return useModels((s) => s.state.defaultModel)
}

/**
 * Sends the composer's text and attachments; resolves true when the turn started, so the
 * composer can clear.
 */
export async function sendMessage(
  text: string,
  attachments: readonly Attachment[] = []
): Promise<boolean> {
  const state = useChat.getState().state
  const sessionId = state.sessionId
  if (!sessionId || isBusy(state) || (!text.trim() && attachments.length === 0)) return false
  // The composer already holds such text back; this keeps any other way of sending honest too,
  // and answers here rather than after a round trip the contract would refuse anyway.
  const tooLarge = messageSizeProblem(text) ?? attachmentsProblem(attachments)
  if (tooLarge) {
    dispatch({ type: 'send-failed', error: tooLarge })
    return false
  }
  dispatch({ type: 'send-started' })
  try {
    const { turnId } = await call('session.send', {
      sessionId,
      text,
      ...(attachments.length > 0 ? { attachments: [...attachments] } : {})
    })
    dispatch({ type: 'send-done', sessionId, turnId })
    return true
  } catch (error) {
    dispatch({ type: 'send-failed', error: errorMessage(error) })
    return false
  }
}

export async function stopTurn(): Promise<void> {
  const { sessionId, running, stopping } = useChat.getState().state
  if (!sessionId || !running || stopping) return
  dispatch({ type: 'stop-requested' })
  try {
    const { cancelled } = await call('session.cancel', { sessionId })
    if (!cancelled) dispatch({ type: 'stop-failed' })
  } catch {
    dispatch({ type: 'stop-failed' })
  }
}

export async function loadModels(): Promise<void> {
  useModels.getState().dispatch({ type: 'loading' })
  try {
    const { models, defaultModel } = await call('provider.models', {})
    useModels.getState().dispatch({ type: 'loaded', models, defaultModel })
  } catch (error) {
    useModels.getState().dispatch({ type: 'failed', error: errorMessage(error) })
  }
}

export async function setSessionModel(sessionId: string, model: ModelRef): Promise<string | null> {
  try {
    const session = await call('session.setModel', { sessionId, model })
    applySessionUpdate(session)
    return null
  } catch (error) {
    return errorMessage(error)
  }
}
