import { describe, expect, it } from 'vitest'
import { initialTrustState, trustReducer, type TrustState } from './trust-reducer'

const opened = (trust: 'trusted' | 'untrusted' | 'unknown'): TrustState =>
  trustReducer(initialTrustState, { type: 'opened', folder: '/p', trust })

describe('trustReducer', () => {
  it('asks on the first open of a folder, and not for one already answered', () => {
    expect(opened('unknown')).toMatchObject({
      folder: '/p',
      trust: 'unknown',
      dialog: 'first-open'
    })
    expect(opened('trusted').dialog).toBe('closed')
    expect(opened('untrusted').dialog).toBe('closed')
  })

  it('closes once the answer is saved, and keeps it', () => {
    let state = trustReducer(opened('unknown'), { type: 'saving' })
    expect(state).toMatchObject({ saving: true, dialog: 'first-open' })
    state = trustReducer(state, { type: 'saved', trust: 'untrusted' })
    expect(state).toMatchObject({
      trust: 'untrusted',
      dialog: 'closed',
      saving: false,
      error: null
    })
  })

  it('stays open with the reason when the answer could not be saved', () => {
    let state = trustReducer(opened('unknown'), { type: 'saving' })
    state = trustReducer(state, { type: 'save-failed', error: 'disk full' })
    expect(state).toMatchObject({ dialog: 'first-open', saving: false, error: 'disk full' })
    expect(state.trust).toBe('unknown')
  })

  it('cannot be dismissed on the first open, only answered; a change can be cancelled', () => {
    expect(trustReducer(opened('unknown'), { type: 'close' }).dialog).toBe('first-open')
    const changing = trustReducer(opened('trusted'), { type: 'change' })
    expect(changing.dialog).toBe('change')
    expect(trustReducer(changing, { type: 'close' })).toMatchObject({
      dialog: 'closed',
      trust: 'trusted'
    })
  })

  it('forgets the last folder’s error when another opens', () => {
    let state = trustReducer(opened('unknown'), { type: 'save-failed', error: 'no' })
    state = trustReducer(state, { type: 'opened', folder: '/q', trust: 'trusted' })
    expect(state).toMatchObject({ folder: '/q', error: null, dialog: 'closed' })
  })
})
