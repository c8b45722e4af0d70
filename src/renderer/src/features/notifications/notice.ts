import type { AnyEvent } from '../../../../shared/contract'

/** A desktop notification about one session: what happened, under the session's title. */
export interface Notice {
  sessionId: string
  title: string
  body: string
  /** One per session and kind: a newer one replaces the older instead of piling up. */
  tag: string
}

const BODY_LIMIT = 160

function line(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > BODY_LIMIT ? `${flat.slice(0, BODY_LIMIT - 1)}…` : flat
}

/**
 * The notification an event calls for, or null: a turn that ended (not one the person stopped),
 * a turn that failed, a tool call waiting for approval, a question from the model. `titleOf`
 * answers null for a session that is not this window's, which stays quiet here.
 */
export function noticeFor(
  event: AnyEvent,
  titleOf: (sessionId: string) => string | null
): Notice | null {
  const about = (sessionId: string, kind: string, body: string): Notice | null => {
    const title = titleOf(sessionId)
    if (title === null) return null
    return {
      sessionId,
      title: title || 'New session',
      body: line(body),
      tag: `${sessionId}:${kind}`
    }
  }
  switch (event.event) {
    case 'turn.completed':
      if (event.payload.stopReason === 'cancelled') return null
      return about(event.payload.sessionId, 'turn', 'Mecatl finished; the reply is ready.')
    case 'turn.failed':
      return about(event.payload.sessionId, 'turn', `The turn failed: ${event.payload.error}`)
    case 'approval.requested':
      return about(
        event.payload.sessionId,
        'approval',
        `Waiting for your approval to run ${event.payload.tool}.`
      )
    case 'question.asked':
      return about(event.payload.sessionId, 'question', `Asks you: ${event.payload.question}`)
    default:
      return null
  }
}

/** Where the window stands, as the page sees it. */
export interface PageState {
  hidden: boolean
  focused: boolean
}

/** Notify only when the person is not looking at the window, and the setting allows it. */
export function shouldNotify(enabled: boolean, page: PageState): boolean {
  return enabled && (page.hidden || !page.focused)
}

/** The settings file's `notifications.enabled`: on unless it says false. */
export function notificationsOn(base: Record<string, unknown>): boolean {
  const entry = base.notifications
  return !(
    typeof entry === 'object' &&
    entry !== null &&
    'enabled' in entry &&
    entry.enabled === false
  )
}

/** The file's `notifications` entry with `enabled` set as the toggle says. */
export function withNotifications(
  base: Record<string, unknown>,
  on: boolean
): Record<string, unknown> {
  const entry = base.notifications
  const kept = typeof entry === 'object' && entry !== null ? { ...entry } : {}
  return { ...kept, enabled: on }
}
