import { BrowserWindow, Notification, webContents } from 'electron'
import type { HostHooks } from '../host-hooks'

/**
 * The desktop's notifications for `app.notify`. A click brings back the window that asked
 * (restored, shown, focused) and then reports the click, so that window selects the session.
 * A newer notice with the same tag replaces the older one, as the browser's tags do; shown ones
 * are held on to, because a notification that is garbage-collected loses its click handler.
 */
export function createNotifier(): NonNullable<HostHooks['notify']> {
  const shown = new Map<string, Notification>()
  return async (notice, caller, clicked) => {
    const match = /^ipc:(\d+)$/.exec(caller)
    if (!match || !Notification.isSupported()) return false
    const contentsId = Number(match[1])
    shown.get(notice.tag)?.close()
    const notification = new Notification({ title: notice.title, body: notice.body })
    shown.set(notice.tag, notification)
    const forget = (): void => {
      if (shown.get(notice.tag) === notification) shown.delete(notice.tag)
    }
    notification.on('click', () => {
      forget()
      const contents = webContents.fromId(contentsId)
      const window = contents ? BrowserWindow.fromWebContents(contents) : null
      if (!window || window.isDestroyed()) return
      if (window.isMinimized()) window.restore()
      window.show()
      window.focus()
      clicked()
    })
    notification.on('close', forget)
    notification.show()
    return true
  }
}
