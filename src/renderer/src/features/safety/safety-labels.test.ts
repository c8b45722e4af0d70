import { describe, expect, it } from 'vitest'
import type { Capabilities } from '../../../../shared/domain'
import { capabilityChips, deniedBadge, describeTaint, refusalLabel } from './safety-labels'

const none: Capabilities = {
  privateData: false,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}

describe('describeTaint', () => {
  it('says nothing has entered a fresh session (or one from an older server)', () => {
    expect(describeTaint(undefined).level).toBe('clean')
    expect(describeTaint({ privateData: false, untrustedInput: false })).toMatchObject({
      level: 'clean',
      sendsRefused: false
    })
  })

  it('names each kind of taint alone, with sends still allowed', () => {
    expect(describeTaint({ privateData: true, untrustedInput: false })).toMatchObject({
      level: 'private',
      label: 'Private data',
      sendsRefused: false
    })
    expect(describeTaint({ privateData: false, untrustedInput: true })).toMatchObject({
      level: 'untrusted',
      label: 'Untrusted input',
      sendsRefused: false
    })
  })

  it('says sends are refused once both are present, and explains the interlock', () => {
    const view = describeTaint({ privateData: true, untrustedInput: true })
    expect(view.level).toBe('locked')
    expect(view.sendsRefused).toBe(true)
    expect(view.label).toContain('sends refused')
    expect(view.detail).toContain('interlock')
  })

  it('says sends are refused after private data alone when the setting asks for it', () => {
    const view = describeTaint({ privateData: true, untrustedInput: false }, true)
    expect(view).toMatchObject({ level: 'private', sendsRefused: true })
    expect(view.detail).toContain('block_sends_after_private')
  })
})

describe('describeTaint in a folder whose authors are not trusted', () => {
  it('says "Untrusted folder", and why its first read will refuse sends', () => {
    const view = describeTaint({ privateData: false, untrustedInput: true }, false, true)
    expect(view).toMatchObject({
      level: 'untrusted',
      label: 'Untrusted folder',
      sendsRefused: false
    })
    expect(view.detail).toContain('do not trust the authors of this folder')
    expect(view.detail).toContain('refused')
  })

  it('says "Untrusted folder · sends refused" once a file has been read', () => {
    const view = describeTaint({ privateData: true, untrustedInput: true }, false, true)
    expect(view).toMatchObject({
      level: 'locked',
      label: 'Untrusted folder · sends refused',
      sendsRefused: true
    })
    expect(view.detail).toContain('interlock')
    expect(view.detail).toContain('next session')
  })
})

describe('refusalLabel', () => {
  it('names every part of the gate in words', () => {
    expect(refusalLabel('interlock')).toBe('Refused by the interlock')
    expect(refusalLabel('rule')).toBe('Refused by a permission rule')
    expect(refusalLabel('hook')).toBe('Refused by a hook')
    expect(refusalLabel('mode')).toBe('Refused by read-only mode')
    expect(refusalLabel('planning')).toBe('Refused by planning mode')
    expect(refusalLabel('approver')).toBe('Denied by you')
    expect(refusalLabel('cancel')).toBe('Stopped')
    expect(refusalLabel('something-new')).toBe('Refused by something-new')
  })

  it('badges a call the person denied apart from one the gate refused', () => {
    expect(deniedBadge('approver')).toBe('Denied')
    expect(deniedBadge('interlock')).toBe('Refused')
    expect(deniedBadge('planning')).toBe('Refused')
    expect(deniedBadge('cancel')).toBe('Stopped')
  })
})

describe('capabilityChips', () => {
  it('shows a read-only local tool as read-only and private', () => {
    const chips = capabilityChips(true, { ...none, privateData: true })
    expect(chips.map((c) => c.label)).toEqual(['read-only', 'private'])
  })

  it('shows the risky capabilities of a send, warmest last', () => {
    const chips = capabilityChips(false, {
      privateData: false,
      untrustedInput: true,
      egress: 'chosen',
      destructive: true
    })
    expect(chips.map((c) => [c.label, c.tone])).toEqual([
      ['untrusted', 'warn'],
      ['egress: chosen', 'danger'],
      ['destructive', 'danger']
    ])
    expect(capabilityChips(false, { ...none, egress: 'blind' })[0]?.label).toBe('egress: blind')
  })

  it('shows nothing for a call to a tool that does not exist', () => {
    expect(capabilityChips(true, null)).toEqual([])
  })
})
