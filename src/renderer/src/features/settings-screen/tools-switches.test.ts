import { describe, expect, it } from 'vitest'
import { switchOn, withSwitch } from './tools-switches'

describe('tool switches', () => {
  it('are on unless the file says enabled: false', () => {
    expect(switchOn({}, 'shell')).toBe(true)
    expect(switchOn({ shell: {} }, 'shell')).toBe(true)
    expect(switchOn({ shell: { enabled: true } }, 'shell')).toBe(true)
    expect(switchOn({ shell: { enabled: false } }, 'shell')).toBe(false)
    // A malformed entry is the file's problem to report; the switch shows the default.
    expect(switchOn({ skills: 'off' }, 'skills')).toBe(true)
  })

  it('write only `enabled`, and leave the default out of the file', () => {
    expect(withSwitch({}, 'shell', false)).toEqual({ enabled: false })
    expect(withSwitch({ shell: { enabled: false } }, 'shell', true)).toEqual({})
    const base = { user_model: { enabled: true, extra: 1 } }
    expect(withSwitch(base, 'user_model', false)).toEqual({ enabled: false, extra: 1 })
    expect(base.user_model).toEqual({ enabled: true, extra: 1 })
  })
})
