import { describe, expect, it } from 'vitest'
import { settingsSchema } from '../../../../shared/settings'
import { notificationsOn, withNotifications } from './notice'

describe('the notifications setting', () => {
  it('is on by default and can be turned off in the file', () => {
    expect(settingsSchema.parse({}).notifications).toEqual({ enabled: true })
    const off = settingsSchema.parse({ notifications: { enabled: false } })
    expect(off.notifications.enabled).toBe(false)
  })

  it('refuses what it does not know, like every other key', () => {
    expect(settingsSchema.safeParse({ notifications: { enabled: 'no' } }).success).toBe(false)
    expect(settingsSchema.safeParse({ notifications: { sound: true } }).success).toBe(false)
  })

  it('is written by the toggle as the schema reads it', () => {
    const base = { notifications: { enabled: true } }
    const off = { ...base, notifications: withNotifications(base, false) }
    expect(settingsSchema.parse(off).notifications.enabled).toBe(false)
    expect(notificationsOn(off)).toBe(false)
    const on = { ...off, notifications: withNotifications(off, true) }
    expect(settingsSchema.parse(on).notifications.enabled).toBe(true)
    expect(notificationsOn(on)).toBe(true)
  })
})
