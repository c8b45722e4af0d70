import { describe, expect, it } from 'vitest'
import { describeChanges, describeRestore, restoreVerb } from './change-words'

describe('how a card says what changed', () => {
  it('counts each kind, the first with its noun', () => {
    expect(
      describeChanges([
        { path: 'a', change: 'changed' },
        { path: 'b', change: 'changed' },
        { path: 'c', change: 'changed' },
        { path: 'd', change: 'created' }
      ])
    ).toBe('changed 3 files, created 1')
    expect(describeChanges([{ path: 'x', change: 'deleted' }])).toBe('deleted 1 file')
    expect(describeChanges([])).toBe('changed no files')
  })

  it('says how many are beyond the list', () => {
    expect(describeChanges([{ path: 'a', change: 'created' }], 1500)).toBe(
      'created 1 file, and 1,500 more files'
    )
  })

  it('says what a restore did, by what it did to each file', () => {
    expect(
      describeRestore([
        { path: 'a', change: 'changed' },
        { path: 'b', change: 'created' },
        { path: 'c', change: 'changed' }
      ])
    ).toBe('2 files put back, 1 removed')
    expect(describeRestore([{ path: 'd', change: 'deleted' }])).toBe('1 file brought back')
  })

  it('names what a restore does to each file', () => {
    expect(restoreVerb('created')).toBe('removed')
    expect(restoreVerb('deleted')).toBe('brought back')
    expect(restoreVerb('changed')).toBe('put back')
  })
})
