import { describe, expect, it } from 'vitest'
import { capabilitiesFromHints } from './annotations'

describe('capabilitiesFromHints', () => {
  it('a read-only, closed-world tool sees private data and nothing more', () => {
    expect(capabilitiesFromHints({ readOnlyHint: true, openWorldHint: false }, {})).toEqual({
      readOnly: true,
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false }
    })
  })

  it('openWorldHint means untrusted input and chosen egress', () => {
    const mapped = capabilitiesFromHints(
      { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      {}
    )
    expect(mapped.readOnly).toBe(false)
    expect(mapped.capabilities).toMatchObject({
      untrustedInput: true,
      egress: 'chosen',
      destructive: false
    })
  })

  it('destructiveHint makes a tool destructive', () => {
    const mapped = capabilitiesFromHints(
      { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
      {}
    )
    expect(mapped.capabilities.destructive).toBe(true)
  })

  it('an unannotated tool sees private data only: not untrusted, not a send, not destructive', () => {
    const bare = {
      readOnly: false,
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false }
    }
    expect(capabilitiesFromHints(undefined, {})).toEqual(bare)
    expect(capabilitiesFromHints({}, {})).toEqual(bare)
  })

  it('each hint adds only what it says', () => {
    expect(capabilitiesFromHints({ openWorldHint: true }, {}).capabilities).toEqual({
      privateData: true,
      untrustedInput: true,
      egress: 'chosen',
      destructive: false
    })
    expect(capabilitiesFromHints({ destructiveHint: true }, {})).toEqual({
      readOnly: false,
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: true }
    })
    expect(capabilitiesFromHints({ readOnlyHint: true }, {}).readOnly).toBe(true)
    // A read-only tool cannot also destroy: the spec gives destructiveHint meaning only without it.
    expect(capabilitiesFromHints({ readOnlyHint: true, destructiveHint: true }, {})).toEqual({
      readOnly: true,
      capabilities: { privateData: true, untrustedInput: false, egress: 'none', destructive: false }
    })
  })

  it('settings can force distrust onto an unannotated tool', () => {
    expect(
      capabilitiesFromHints(undefined, {
        untrustedInput: true,
        egress: 'chosen',
        destructive: true
      })
    ).toEqual({
      readOnly: false,
      capabilities: { privateData: true, untrustedInput: true, egress: 'chosen', destructive: true }
    })
  })

  it('forcing widens and never narrows', () => {
    const forced = capabilitiesFromHints(
      { readOnlyHint: true, openWorldHint: false },
      { destructive: true, untrustedInput: true, egress: 'blind' }
    )
    expect(forced).toEqual({
      readOnly: false,
      capabilities: { privateData: true, untrustedInput: true, egress: 'blind', destructive: true }
    })
    const notNarrowed = capabilitiesFromHints(
      { openWorldHint: true, destructiveHint: true },
      { destructive: false, untrustedInput: false, egress: 'none', privateData: false }
    )
    expect(notNarrowed.capabilities).toEqual({
      privateData: true,
      untrustedInput: true,
      egress: 'chosen',
      destructive: true
    })
  })
})
