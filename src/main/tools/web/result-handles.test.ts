import { describe, expect, it } from 'vitest'
import { MAX_SESSIONS, ResultHandles } from './result-handles'
import type { FoundResult } from './search-backends'

const found = (n: number): FoundResult[] => [
  { title: `Result ${n}`, url: `https://example.com/${n}`, snippet: `about ${n}` }
]

describe('search result handles', () => {
  it('are kept for the sessions that searched last, not for every session of the day', () => {
    const handles = new ResultHandles()
    for (let n = 0; n <= MAX_SESSIONS; n++) handles.add(`s${n}`, found(n))
    // The session that searched longest ago was let go of, results and all.
    expect(handles.get('s0', 'r1')).toBeUndefined()
    expect(handles.get('s1', 'r1')?.url).toBe('https://example.com/1')

    // Searching again makes a session the latest: its handles go on where they were.
    expect(handles.add('s1', found(100)).map((r) => r.handle)).toEqual(['r2'])
    handles.add('late', found(200))
    expect(handles.get('s1', 'r1')?.url).toBe('https://example.com/1')
    expect(handles.get('s2', 'r1')).toBeUndefined()
  })
})
