import { describe, expect, it } from 'vitest'
import type { Capabilities } from '../../../../shared/domain'
import { chipNews } from './chip-news'

const fsRead: Capabilities = {
  privateData: true,
  untrustedInput: false,
  egress: 'none',
  destructive: false
}
const web: Capabilities = {
  privateData: false,
  untrustedInput: true,
  egress: 'chosen',
  destructive: false
}
const edit: Capabilities = { ...fsRead, destructive: true }

const call = (id: string, readOnly: boolean, capabilities: Capabilities | null) => ({
  id,
  readOnly,
  capabilities
})
const labels = (news: ReturnType<typeof chipNews>, id: string): string[] =>
  (news.get(id) ?? []).map((chip) => chip.label)

describe('chipNews', () => {
  it('says "read-only · private" once, not on every Read of the session', () => {
    const news = chipNews([1, 2, 3, 4].map((n) => call(`r${n}`, true, fsRead)))
    expect(labels(news, 'r1')).toEqual(['read-only', 'private'])
    for (const id of ['r2', 'r3', 'r4']) expect(labels(news, id)).toEqual([])
  })

  it('says read-only again where a run of read-only calls starts after one that changes', () => {
    const news = chipNews([
      call('r1', true, fsRead),
      call('r2', true, fsRead),
      call('e1', false, edit),
      call('r3', true, fsRead),
      call('r4', true, fsRead)
    ])
    expect(['r1', 'r2', 'e1', 'r3', 'r4'].map((id) => labels(news, id).join(' · '))).toEqual([
      'read-only · private',
      '',
      'destructive',
      'read-only',
      ''
    ])
  })

  it('always shows what carries risk: untrusted input, egress, destructive', () => {
    const news = chipNews([
      call('w1', true, web),
      call('w2', true, web),
      call('e1', false, edit),
      call('e2', false, edit)
    ])
    expect(labels(news, 'w1')).toEqual(['read-only', 'untrusted', 'egress: chosen'])
    expect(labels(news, 'w2')).toEqual(['untrusted', 'egress: chosen'])
    expect(labels(news, 'e1')).toEqual(['private', 'destructive'])
    expect(labels(news, 'e2')).toEqual(['destructive'])
  })

  it('shows nothing for a call whose capabilities are unknown', () => {
    expect(labels(chipNews([call('x', true, null)]), 'x')).toEqual([])
  })

  it('gives equal decisions the same array, so memoised cards do not redraw', () => {
    const first = chipNews([
      call('a', true, fsRead),
      call('b', true, fsRead),
      call('c', true, fsRead)
    ])
    const again = chipNews([
      call('a', true, fsRead),
      call('b', true, fsRead),
      call('c', true, fsRead)
    ])
    expect(first.get('b')).toBe(first.get('c'))
    expect(first.get('a')).toBe(again.get('a'))
  })
})
