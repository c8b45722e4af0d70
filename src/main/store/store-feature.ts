import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import { openStore, type Store } from './store'

/**
 * `<dataDir>/mecatl.db`: memory and sessions. Opened before anything that starts timers or
 * processes, so a database that cannot be used stops the core with one sentence, leaving nothing
 * running behind it; closed last.
 */
export const storeFeature: Feature<
  { options: { dataDir: string }; hub: EventHub },
  { store: Store }
> = {
  name: 'store',
  start({ options, hub }) {
    const store = openStore(options.dataDir)
    store.memory.onChange((owner, name) =>
      hub.emit('memory.changed', { scope: owner.scope, workspace: owner.project || null, name })
    )
    return { provides: { store }, stop: () => store.close() }
  }
}
