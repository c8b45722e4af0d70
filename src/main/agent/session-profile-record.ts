import { sessionProfileSchema, type SessionProfile } from '../../shared/session-profile'
import type { StoredEvent } from '../store/session-store'

/**
 * A recorded session's profile, read back from the summaries it recorded. Any `no-fs` wins: a
 * profile only ever restricts, so a session once file-less is never loaded back with files.
 */
export function recordedProfile(events: readonly StoredEvent[]): SessionProfile {
  for (const event of events) {
    if (event.kind !== 'session.updated') continue
    const profile = sessionProfileSchema.safeParse(event.payload.profile)
    if (profile.success && profile.data === 'no-fs') return 'no-fs'
  }
  return 'default'
}
