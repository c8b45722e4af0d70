/**
 * Text to put in a session's message box when it is next shown: a rewound conversation offers
 * back the message it was rewound from, to edit and send again.
 */
const pending = new Map<string, string>()

export function offerDraft(sessionId: string, text: string): void {
  pending.set(sessionId, text)
}

/** The text offered to this session, if any. */
export function offeredDraft(sessionId: string | null): string | null {
  return sessionId ? (pending.get(sessionId) ?? null) : null
}

/** The session is shown: its offer has been taken. */
export function dropDraft(sessionId: string | null): void {
  if (sessionId) pending.delete(sessionId)
}
