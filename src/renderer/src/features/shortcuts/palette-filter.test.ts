import { describe, expect, it } from 'vitest'
import { filterPalette, fuzzyScore } from './palette-filter'

const items = [
  { id: 'new', label: 'New session' },
  { id: 'settings', label: 'Open settings' },
  { id: 'plan', label: 'Toggle planning' },
  { id: 'jobs', label: 'Open jobs' },
  { id: 'keys', label: 'Show keyboard shortcuts' },
  { id: 's1', label: 'Switch to: Fix the login bug' },
  { id: 's2', label: 'Switch to: Refactor settings screen' }
]

const ids = (query: string): string[] => filterPalette(items, query).map((i) => i.id)

describe('filterPalette', () => {
  it('lists everything, in order, for a blank query', () => {
    expect(ids('')).toEqual(items.map((i) => i.id))
    expect(ids('   ')).toEqual(items.map((i) => i.id))
  })

  it('keeps items whose label holds the letters in order, ignoring case', () => {
    expect(ids('LOGIN')).toEqual(['s1'])
    expect(ids('tgpln')).toEqual(['plan'])
    expect(ids('zzz')).toEqual([])
  })

  it('ranks whole words and word starts above scattered letters', () => {
    // "settings" is a word of two labels and scattered letters of none other.
    expect(ids('settings')).toEqual(['settings', 's2'])
    // "os" starts the words of "Open settings" and "Open jobs"... and is scattered in others.
    expect(ids('os')[0]).toBe('settings')
    expect(ids('jobs')[0]).toBe('jobs')
  })

  it('matches a session by its title', () => {
    expect(ids('refactor')).toEqual(['s2'])
  })
})

describe('fuzzyScore', () => {
  it('is null when a letter is missing, and higher for a tighter match', () => {
    expect(fuzzyScore('New session', 'nsx')).toBeNull()
    const tight = fuzzyScore('New session', 'new') ?? 0
    const loose = fuzzyScore('New session', 'nes') ?? 0
    expect(tight).toBeGreaterThan(loose)
  })

  it('does not choke on characters a regular expression would treat specially', () => {
    expect(fuzzyScore('a (b) [c]*', '(b)')).not.toBeNull()
    expect(fuzzyScore('plain', '.*')).toBeNull()
  })
})
