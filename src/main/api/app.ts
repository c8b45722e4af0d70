import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { version } from '../version'

/**
 * Where the app runs, and `app.notify`: the desktop app shows the window's notification (the
 * renderer decides when, as only it knows whether its page is hidden or focused); other hosts
 * answer that none was shown.
 */
export function appApi({
  options,
  hooks,
  hub
}: Pick<Services, 'options' | 'hooks' | 'hub'>): SliceHandlers<'app'> {
  return {
    'app.info': async () => ({
      mode: options.host,
      version,
      dataDir: options.dataDir,
      canPickFolder: Boolean(hooks.pickFolder),
      canStoreSecrets: Boolean(hooks.storeSecret),
      keyFile: hooks.secretFile ?? null,
      workspace: options.workspace ?? null
    }),
    'app.notify': async (notice, ctx) => {
      const notify = hooks.notify
      if (!notify) return { shown: false }
      const shown = await notify(notice, ctx.caller, () =>
        hub.emit('notification.clicked', { tag: notice.tag })
      )
      return { shown }
    }
  }
}
