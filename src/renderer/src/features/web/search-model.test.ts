import { describe, expect, it } from 'vitest'
import {
  addBackend,
  backendsOf,
  moveBackend,
  removeBackend,
  searchEnabled,
  setBackendField,
  setSearchEnabled
} from './search-model'

describe('search settings model', () => {
  it('builds, reorders and trims the chain, keeping keys it does not know', () => {
    let ws: Record<string, unknown> = { timeout_ms: 9000 }
    ws = addBackend(ws, 'searxng')
    ws = addBackend(ws, 'brave')
    ws = addBackend(ws, 'http')
    expect(backendsOf(ws).map((b) => b.kind)).toEqual(['searxng', 'brave', 'http'])
    ws = moveBackend(ws, 2, -1)
    expect(backendsOf(ws).map((b) => b.kind)).toEqual(['searxng', 'http', 'brave'])
    // Past either end nothing moves.
    expect(moveBackend(ws, 0, -1)).toBe(ws)
    expect(moveBackend(ws, 2, 1)).toBe(ws)
    ws = removeBackend(ws, 0)
    expect(backendsOf(ws).map((b) => b.kind)).toEqual(['http', 'brave'])
    expect(ws.timeout_ms).toBe(9000)
  })

  it('drops emptied fields so defaults apply, and writes enabled only when off', () => {
    let ws = addBackend({}, 'searxng')
    ws = setBackendField(ws, 0, 'url', 'http://search.lan')
    ws = setBackendField(ws, 0, 'enabled', false)
    expect(backendsOf(ws)[0]).toEqual({ kind: 'searxng', url: 'http://search.lan', enabled: false })
    ws = setBackendField(ws, 0, 'url', '')
    ws = setBackendField(ws, 0, 'enabled', true)
    expect(backendsOf(ws)[0]).toEqual({ kind: 'searxng' })
    expect(searchEnabled(ws)).toBe(true)
    expect(searchEnabled(setSearchEnabled(ws, false))).toBe(false)
    expect(setSearchEnabled(setSearchEnabled(ws, false), true)).not.toHaveProperty('enabled')
  })
})
