import { useEffect } from 'react'
import { useTitleDot } from './approval-dot'
import { wireNotifications } from './notifier'

/** What the window tells a person who is looking elsewhere: notifications, the title's dot. */
export function WindowSignals(): null {
  useTitleDot()
  useEffect(() => wireNotifications(), [])
  return null
}
