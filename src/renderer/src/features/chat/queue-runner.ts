import { useEffect } from 'react'
import { call, onEvent } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { sendMessage, stopTurn, useChat, useQueue } from './chat-store'
import { endOutcome, nextToSend, turnOutcome, type TurnOutcome } from './queue-reducer'
import type { ChatState } from './transcript-reducer'

const queueDispatch = useQueue.getState().dispatch
let counter = 0

/** Puts `text` at the end of the session's queue; it is sent when the running turn ends. */
export function queueMessage(sessionId: string, text: string): void {
  counter += 1
  queueDispatch({ type: 'enqueue', sessionId, id: `q${Date.now().toString(36)}-${counter}`, text })
}

/**
 * Sends the queued message at once: a running turn is stopped first, and the message goes as
 * soon as the stop has landed (before any other queued message).
 */
export function sendQueuedNow(sessionId: string, id: string): void {
  queueDispatch({ type: 'send-now', sessionId, id })
}

/** The Send now message a stop was asked for: asked once, so a refused stop is not a loop. */
let stopAskedFor: string | null = null

/** Nothing is on its way and no turn runs: the session would take a message now. */
function idle(chat: ChatState): boolean {
  return chat.status === 'ready' && !chat.running && !chat.sending && !chat.stopping
}

/**
 * Sends the shown session's next queued message when the session is idle. Level-triggered (it
 * looks at the state, not at which event arrived), so a turn that ended while another session
 * was shown sends its queue when the person comes back, and nothing depends on event order.
 */
function drain(): void {
  const chat = useChat.getState().state
  const sessionId = chat.sessionId
  if (!sessionId) return
  const queue = useQueue.getState().state.sessions[sessionId]
  // Send now during a turn (even one that only just started): stop it, then send.
  const now = queue?.sendNow ?? null
  if (now !== null && chat.running && !chat.stopping && stopAskedFor !== now) {
    stopAskedFor = now
    void stopTurn()
    return
  }
  const next = nextToSend(queue, idle(chat), turnOutcome(chat.entries))
  if (!next) return
  // Marked first, so the store change this causes finds it on its way and sends nothing more.
  queueDispatch({ type: 'take', sessionId, id: next.id })
  void sendMessage(next.text).then((ok) => {
    if (ok) {
      queueDispatch({ type: 'sent', sessionId, id: next.id })
      return
    }
    const error =
      useChat.getState().state.sendError ?? 'the session did not take it; press Send now to retry'
    queueDispatch({ type: 'failed', sessionId, id: next.id, error })
  })
}

/**
 * A turn ended in a session that is not on screen: its queue moves on there too, straight
 * through the contract (the chat store only follows the shown session).
 */
function drainInBackground(sessionId: string, outcome: TurnOutcome): void {
  if (useChat.getState().state.sessionId === sessionId) return
  const next = nextToSend(useQueue.getState().state.sessions[sessionId], true, outcome)
  if (!next) return
  queueDispatch({ type: 'take', sessionId, id: next.id })
  call('session.send', { sessionId, text: next.text }).then(
    () => queueDispatch({ type: 'sent', sessionId, id: next.id }),
    (error: unknown) =>
      queueDispatch({ type: 'failed', sessionId, id: next.id, error: errorMessage(error) })
  )
}

let wired = false

/**
 * Keeps the queues moving, the shown session's and the others', from the first time the chat is
 * shown until the page goes: a turn that ends while Settings is open still sends its queue.
 */
export function useQueueRunner(): void {
  useEffect(() => {
    if (wired) return
    wired = true
    drain()
    useChat.subscribe(drain)
    useQueue.subscribe(drain)
    // A failed turn holds its queue, so only a completed one can move a queue on.
    onEvent('turn.completed', ({ sessionId, stopReason }) =>
      drainInBackground(sessionId, endOutcome(stopReason, null))
    )
  }, [])
}
