import type { Handlers } from '../../shared/contract/handlers'
import type { EventHub } from '../events/event-hub'
import type { HostHooks } from '../workspace/workspace-handlers'

/**
 * `app.notify`: the desktop app shows the window's notification (the renderer decides when, as
 * only it knows whether its page is hidden or focused); other hosts answer that none was shown.
 */
export function notifyHandlers(deps: {
  hooks: HostHooks
  hub: EventHub
}): Pick<Handlers, 'app.notify'> {
  return {
    'app.notify': async (notice, ctx) => {
      const notify = deps.hooks.notify
      if (!notify) return { shown: false }
      const shown = await notify(notice, ctx.caller, () =>
        deps.hub.emit('notification.clicked', { tag: notice.tag })
      )
      return { shown }
    }
  }
}
