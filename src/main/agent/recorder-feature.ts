import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { Store } from '../store/store'
import { SessionRecorder } from './session-recorder'

/**
 * Records every event of every session into the store. Started right after the store, before any
 * session exists or any job can end, and stopped just before the store closes, so nothing that
 * happens while the others stop goes unrecorded.
 */
export const recorderFeature: Feature<{ store: Store; hub: EventHub }, object> = {
  name: 'recorder',
  start({ store, hub }) {
    const recorder = new SessionRecorder(store.sessions, hub)
    return { provides: {}, stop: () => recorder.close() }
  }
}
