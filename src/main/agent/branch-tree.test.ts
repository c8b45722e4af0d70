import { describe, expect, it } from 'vitest'
import type { TranscriptItem } from '../../shared/domain'
import { BranchTree } from './branch-tree'

const user = (id: string, parent?: string | null): TranscriptItem => ({
  kind: 'user',
  id,
  text: id,
  at: 0,
  ...(parent === undefined ? {} : { parent })
})
const reply = (id: string): TranscriptItem => ({
  kind: 'assistant',
  id,
  turnId: id,
  text: id,
  at: 0,
  streaming: false
})

function tree(...items: [string, TranscriptItem][]): BranchTree {
  const branches = new BranchTree()
  for (const [key, item] of items) branches.place(key, item)
  return branches
}

describe('BranchTree', () => {
  it('reads a log from before branches as one line', () => {
    const t = tree(['u1', user('u1')], ['a1', reply('a1')], ['u2', user('u2')], ['a2', reply('a2')])
    expect(t.path()).toEqual(['u1', 'u2'])
    expect(['u1', 'a1', 'u2', 'a2'].every((key) => t.shows(key))).toBe(true)
    expect(t.branchPoints()).toEqual([])
  })

  it('shows the newest version until another is chosen; items follow the branch shown', () => {
    const t = tree(['u1', user('u1', null)], ['a1', reply('a1')], ['u2', user('u2', 'u1')])
    t.place('a2', reply('a2'))
    t.place('u2b', user('u2b', 'u1'))
    t.place('a2b', reply('a2b'))
    expect(t.path()).toEqual(['u1', 'u2b'])
    expect(t.shows('a2')).toBe(false)
    expect(t.shows('a2b')).toBe(true)
    expect(t.branchPoints()).toEqual([{ key: 'u2b', siblings: ['u2', 'u2b'] }])

    expect(t.choose('u2')).toBe(true)
    // What comes now (a restore between turns, say) belongs to the branch shown.
    t.place('r1', { ...reply('r1') })
    expect(t.segmentOf('r1')).toBe('u2')
    t.place('u3', user('u3'))
    expect(t.path()).toEqual(['u1', 'u2', 'u3'])
    expect(t.shows('a2b')).toBe(false)
    expect(t.choiceOf('u2')).toEqual({ parent: 'u1', child: 'u2' })
    expect(t.choose('a1')).toBe(false)
    expect(t.parentOf('u1')).toBe(null)
    expect(t.parentOf('nope')).toBe(undefined)
  })

  it('a first message has versions beside it at the start', () => {
    const t = tree(['u1', user('u1', null)], ['u1b', user('u1b', null)])
    expect(t.path()).toEqual(['u1b'])
    expect(t.choiceOf('u1')).toEqual({ parent: null, child: 'u1' })
  })
})
