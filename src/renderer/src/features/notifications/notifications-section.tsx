import { useState, type JSX } from 'react'
import { editSetting, useSettingsFile, SettingsCard } from '../settings'
import { notificationsOn, withNotifications } from './notice'
import { showNotice } from './notifier'
import { Button } from '../../ui/button'
import { Check } from '../../ui/check'

/** Settings → Notifications: on or off, and a test that also asks the browser for permission. */
export function NotificationsSection(): JSX.Element {
  const base = useSettingsFile()
  const [tested, setTested] = useState<string | null>(null)
  const test = async (): Promise<void> => {
    const shown = await showNotice({
      sessionId: '',
      title: 'Mecatl',
      body: 'Notifications work: this is how a finished turn will look.',
      tag: 'mecatl:test'
    })
    setTested(
      shown
        ? 'Sent. If nothing appeared, check the system’s notification settings for this app.'
        : 'Not shown: notifications are blocked for this page or not offered here. Allow them in the browser’s site settings, then try again.'
    )
  }
  return (
    <SettingsCard name="notifications" title="Notifications" testId="notifications-section">
      <p className="settings-section__hint">
        While the window is in the background, a desktop notification says when a turn ends or an
        approval or a question waits. Clicking it brings the session back.
      </p>
      <Check
        className="tool-switches__label"
        testId="notifications-enabled"
        checked={notificationsOn(base)}
        onChange={(on) => editSetting('notifications', withNotifications(base, on))}
      >
        Notify me when Mecatl needs me or is done
      </Check>
      <div>
        <Button data-testid="notifications-test" onClick={() => void test()}>
          Send a test notification
        </Button>
        {tested && (
          <p className="field__hint" role="status">
            {tested}
          </p>
        )}
      </div>
    </SettingsCard>
  )
}
