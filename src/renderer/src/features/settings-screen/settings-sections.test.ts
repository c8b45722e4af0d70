import { describe, expect, it } from 'vitest'
import { currentSection, settingsSections } from './settings-sections'

describe('settings sections', () => {
  it('lists the sections of the map in page order', () => {
    expect(settingsSections.map((s) => s.label)).toEqual([
      'Providers',
      'Models',
      'Permissions',
      'MCP servers',
      'Web',
      'Memory',
      'Skills and commands',
      'Appearance',
      'Notifications'
    ])
  })

  it('marks the section whose top passed the reading line, and the last at the bottom', () => {
    const tops = [
      { id: 'providers' as const, top: 0 },
      { id: 'models' as const, top: 400 },
      { id: 'permissions' as const, top: 600 }
    ]
    expect(currentSection(tops, 0, false)).toBe('providers')
    expect(currentSection(tops, 380, false)).toBe('models')
    expect(currentSection(tops, 553, false)).toBe('permissions')
    expect(currentSection(tops, 100, true)).toBe('permissions')
    expect(currentSection([], 0, false)).toBeNull()
  })
})
