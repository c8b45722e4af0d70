import { call, subscribe } from '../../bridge/client'
import { useApp } from '../../app/app-store'
import { selectSession, sessionTitle } from '../sessions'
import { settingsFileNow } from '../settings'
import { noticeFor, notificationsOn, shouldNotify, type Notice } from './notice'

/** Tags of the desktop app's notifications still showing, with the session each is about. */
const shownTags = new Map<string, string>()
let askedPermission = false

function openSession(sessionId: string): void {
  window.focus()
  // The test notification from Settings is about no session.
  if (sessionId) selectSession(sessionId)
}

/**
 * The browser's Notification API. Permission is asked once per page, on the first notice
 * (never as the page loads); refused or dismissed, nothing is shown and nothing asks again.
 */
async function showInBrowser(notice: Notice): Promise<boolean> {
  if (typeof Notification === 'undefined') return false
  let permission = Notification.permission
  if (permission === 'default' && !askedPermission) {
    askedPermission = true
    permission = await Notification.requestPermission()
  }
  if (permission !== 'granted') return false
  const notification = new Notification(notice.title, { body: notice.body, tag: notice.tag })
  notification.onclick = () => {
    notification.close()
    openSession(notice.sessionId)
  }
  return true
}

/** Shows `notice` the way this window can: the desktop app's own, or the browser's. */
export async function showNotice(notice: Notice): Promise<boolean> {
  if (useApp.getState().state.info?.mode !== 'electron') return showInBrowser(notice)
  shownTags.set(notice.tag, notice.sessionId)
  try {
    const { shown } = await call('app.notify', {
      title: notice.title,
      body: notice.body,
      tag: notice.tag
    })
    return shown
  } catch {
    // A notification is a courtesy: the window itself shows what happened.
    return false
  }
}

/**
 * Notifies about this window's sessions while the person looks elsewhere (the page hidden or
 * the window not focused): a turn ended or failed, an approval or a question waits. The window
 * decides, not the main process, because only the page knows whether it is seen, which sessions
 * are its own and what they are called; main only shows what it is asked to. Returns the
 * unsubscribe.
 */
export function wireNotifications(): () => void {
  return subscribe((event) => {
    if (event.event === 'notification.clicked') {
      const sessionId = shownTags.get(event.payload.tag)
      if (sessionId !== undefined) {
        shownTags.delete(event.payload.tag)
        openSession(sessionId)
      }
      return
    }
    const notice = noticeFor(event, sessionTitle)
    if (!notice) return
    const enabled = notificationsOn(settingsFileNow())
    const hidden = document.hidden || document.visibilityState === 'hidden'
    const page = { hidden, focused: document.hasFocus() }
    if (shouldNotify(enabled, page)) void showNotice(notice)
  })
}
