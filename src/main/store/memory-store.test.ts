import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MemoryHit, MemoryOwner, MemoryStore } from './memory-store'
import { projectOwner, userOwner } from './memory-store'
import { unmark } from './memory-query'
import { SEARCH_CANDIDATES } from './memory-search'
import { openStore, type Store } from './store'

let dir: string
let store: Store
let memory: MemoryStore
const alpha = projectOwner('/work/alpha')

/** The hits of a search, best first. */
function search(owner: MemoryOwner, query: string, options?: { prefix?: boolean }): MemoryHit[] {
  return memory.search(owner, query, options).hits
}
const beta = projectOwner('/work/beta')

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mecatl-memory-'))
  store = openStore(dir)
  memory = store.memory
})
afterEach(async () => {
  store.close()
  await rm(dir, { recursive: true, force: true })
})

describe('remember and get', () => {
  it('creates, updates and keeps every revision, each with a new opaque version', () => {
    const created = memory.remember(alpha, 'build', 'npm run build', 's1', 1000)
    expect(created.change).toBe('created')
    const updated = memory.remember(alpha, 'build', 'npm run build -- --prod', 's2', 2000)
    expect(updated.change).toBe('updated')
    expect(updated.entry).toMatchObject({
      name: 'build',
      content: 'npm run build -- --prod',
      state: 'live',
      createdAt: 1000,
      updatedAt: 2000,
      sessionId: 's2',
      lastKind: 'remember'
    })
    expect(updated.entry.version).not.toBe(created.entry.version)
    // Not a counter: 96 random bits, so the next one cannot be worked out from this one.
    expect(updated.entry.version).toMatch(/^[A-Za-z0-9_-]{16}$/)
    const detail = memory.inspect(alpha, 'build')
    expect(detail?.history.map((r) => [r.kind, r.content, r.sessionId])).toEqual([
      ['remember', 'npm run build -- --prod', 's2'],
      ['remember', 'npm run build', 's1']
    ])
    expect(memory.origin(alpha, 'build')).toMatchObject({ sessionId: 's1', at: 1000 })
  })

  it('writes no revision when the content is the same', () => {
    const first = memory.remember(alpha, 'build', 'make', 's1')
    const again = memory.remember(alpha, 'build', 'make', 's2')
    expect(again.change).toBe('unchanged')
    expect(again.entry.version).toBe(first.entry.version)
    expect(memory.inspect(alpha, 'build')?.totalRevisions).toBe(1)
  })

  it('finds a name whatever its case, and keeps one entry per name', () => {
    memory.remember(alpha, 'Build Command', 'make', 's1')
    memory.remember(alpha, 'build command', 'make all', 's1')
    expect(memory.get(alpha, 'BUILD COMMAND')?.content).toBe('make all')
    expect(memory.list(alpha)).toHaveLength(1)
  })

  it('tells every listener after a change is committed, and not for a no-op', () => {
    const seen: string[] = []
    memory.onChange((owner, name) => seen.push(`${owner.scope}:${name}`))
    memory.remember(userOwner, 'tz', 'Europe/Paris', 's1')
    memory.remember(userOwner, 'tz', 'Europe/Paris', 's1')
    expect(seen).toEqual(['user:tz'])
  })
})

describe('forget and undo', () => {
  it('forgets with the current version: not recalled content, not found, history kept', () => {
    const { entry } = memory.remember(alpha, 'deploy', 'ship with fly deploy', 's1')
    const forgotten = memory.forget(alpha, 'deploy', entry.version, 's1')
    expect(forgotten).toMatchObject({ ok: true, entry: { state: 'forgotten', content: null } })
    expect(search(alpha, 'deploy')).toEqual([])
    expect(memory.inspect(alpha, 'deploy')?.history.map((r) => r.kind)).toEqual([
      'forget',
      'remember'
    ])
  })

  it('refuses a stale version, a guessed one and one from another scope, changing nothing', () => {
    const first = memory.remember(alpha, 'deploy', 'v1', 's1').entry
    const second = memory.remember(alpha, 'deploy', 'v2', 's1').entry
    const user = memory.remember(userOwner, 'deploy', 'elsewhere', 's1').entry
    expect(memory.forget(alpha, 'deploy', first.version, 's1')).toMatchObject({
      ok: false,
      reason: 'stale',
      current: { version: second.version }
    })
    expect(memory.undo(alpha, 'deploy', 'AAAAAAAAAAAAAAAA', 's1')).toMatchObject({
      ok: false,
      reason: 'unknown-version'
    })
    expect(memory.forget(alpha, 'deploy', user.version, 's1')).toMatchObject({
      ok: false,
      reason: 'unknown-version'
    })
    expect(memory.get(alpha, 'deploy')).toMatchObject({ content: 'v2', version: second.version })
    expect(memory.inspect(alpha, 'deploy')?.totalRevisions).toBe(2)
  })

  it('undoes a forget: the content is back, searchable, under a new version', () => {
    const { entry } = memory.remember(alpha, 'deploy', 'ship with fly deploy', 's1')
    const forgotten = memory.forget(alpha, 'deploy', entry.version, 's1')
    if (!forgotten.ok) throw new Error('forget failed')
    const undone = memory.undo(alpha, 'deploy', forgotten.entry.version, 's2')
    expect(undone).toMatchObject({
      ok: true,
      entry: { state: 'live', content: 'ship with fly deploy', lastKind: 'undo', sessionId: 's2' }
    })
    if (!undone.ok) return
    expect(undone.entry.version).not.toBe(entry.version)
    expect(search(alpha, 'fly').map((hit) => hit.entry.name)).toEqual(['deploy'])
  })

  it('undoes an update back to the earlier content, and an undo of that redoes it', () => {
    memory.remember(alpha, 'style', 'tabs', 's1')
    const update = memory.remember(alpha, 'style', 'spaces', 's1').entry
    const undone = memory.undo(alpha, 'style', update.version, null)
    if (!undone.ok) throw new Error('undo failed')
    expect(undone.entry.content).toBe('tabs')
    expect(undone.entry.sessionId).toBeNull()
    const redone = memory.undo(alpha, 'style', undone.entry.version, null)
    expect(redone).toMatchObject({ ok: true, entry: { content: 'spaces' } })
  })

  it('undoes a first remember to nothing', () => {
    const { entry } = memory.remember(alpha, 'oops', 'wrong', 's1')
    expect(memory.undo(alpha, 'oops', entry.version, 's1')).toMatchObject({
      ok: true,
      entry: { state: 'forgotten', content: null }
    })
  })

  it('refuses to forget what is already forgotten, and a memory that does not exist', () => {
    const { entry } = memory.remember(alpha, 'x', 'y', 's1')
    const gone = memory.forget(alpha, 'x', entry.version, 's1')
    if (!gone.ok) throw new Error('forget failed')
    expect(memory.forget(alpha, 'x', gone.entry.version, 's1')).toMatchObject({
      ok: false,
      reason: 'already-forgotten'
    })
    expect(memory.forget(alpha, 'nope', entry.version, 's1')).toEqual({
      ok: false,
      reason: 'missing'
    })
  })

  it('remembering a forgotten name restores it with the new content', () => {
    const { entry } = memory.remember(alpha, 'x', 'old', 's1')
    memory.forget(alpha, 'x', entry.version, 's1')
    const back = memory.remember(alpha, 'x', 'new', 's1')
    expect(back.change).toBe('restored')
    expect(search(alpha, 'new').map((h) => h.entry.content)).toEqual(['new'])
  })
})

describe('search', () => {
  it('ranks by BM25: more and rarer matching words first, a name match above a content one', () => {
    memory.remember(alpha, 'lunch', 'the team orders pizza on fridays', 's1')
    memory.remember(alpha, 'pizza', 'favourite topping is basil', 's1')
    memory.remember(alpha, 'oven', 'pizza oven pizza stone pizza peel', 's1')
    memory.remember(alpha, 'unrelated', 'the database runs on sqlite', 's1')
    memory.remember(alpha, 'dinner', 'pizza with basil and tomato', 's1')
    const names = (q: string): string[] => search(alpha, q).map((h) => h.entry.name)
    expect(names('pizza')[0]).toBe('pizza')
    expect(names('pizza')).not.toContain('unrelated')
    expect(names('pizza basil tomato')[0]).toBe('dinner')
    const scores = search(alpha, 'pizza').map((h) => h.score)
    expect(scores).toEqual([...scores].sort((a, b) => a - b))
  })

  it('matches word forms (stemming) and ignores case and accents', () => {
    memory.remember(alpha, 'tests', 'Running the Café integration tests', 's1')
    expect(search(alpha, 'run test cafe')).toHaveLength(1)
  })

  it('treats operators and punctuation in the query as plain words', () => {
    memory.remember(alpha, 'shell', 'use "npm test" NOT yarn', 's1')
    for (const query of ['"npm', 'NOT', 'name:shell', 'a AND (b', '*', 'fts_key u0', "'; DROP"]) {
      expect(() => search(alpha, query), query).not.toThrow()
    }
    expect(search(alpha, 'yarn OR')).toHaveLength(1)
    expect(search(alpha, '!!! ???')).toEqual([])
  })

  it('marks the matched words in the snippet', () => {
    memory.remember(alpha, 'db', 'the database runs on sqlite in WAL mode', 's1')
    const [hit] = search(alpha, 'sqlite')
    const marked = unmark(hit?.snippet ?? '')
    expect(marked.ranges.map(([s, e]) => marked.text.slice(s, e))).toEqual(['sqlite'])
  })

  it('leaves out words too common to rank by when rarer ones are given, and says which', () => {
    store.database.write(() => {
      for (let i = 0; i <= SEARCH_CANDIDATES; i++) {
        memory.remember(alpha, `note ${i}`, `a common word, number ${i}`, 's1', 1000 + i)
      }
    })
    memory.remember(alpha, 'needle', 'the common word beside a rare one: zanzibar', 's1')
    const found = memory.search(alpha, 'common zanzibar')
    expect(found).toMatchObject({ ranking: 'bm25', dropped: ['common'] })
    expect(found.hits.map((h) => h.entry.name)).toEqual(['needle'])
    // Only common words: nothing to rank by, so the newest entries holding them come first.
    const common = memory.search(alpha, 'common', { limit: 3 })
    expect(common.ranking).toBe('newest')
    expect(common.hits.map((h) => h.entry.name)).toEqual([
      'needle',
      `note ${SEARCH_CANDIDATES}`,
      `note ${SEARCH_CANDIDATES - 1}`
    ])
  })

  it('matches the last word as a prefix when asked (the search box while typing)', () => {
    memory.remember(alpha, 'deploy', 'ship it', 's1')
    expect(search(alpha, 'depl')).toEqual([])
    expect(search(alpha, 'depl', { prefix: true })).toHaveLength(1)
  })
})

describe('scopes', () => {
  it("keeps each project's memories to itself and shares the user model with every project", () => {
    memory.remember(alpha, 'build', 'alpha builds with make', 's1')
    memory.remember(beta, 'build', 'beta builds with cargo', 's2')
    memory.remember(userOwner, 'editor', 'the person builds in vim', 's1')
    expect(memory.get(alpha, 'build')?.content).toBe('alpha builds with make')
    expect(memory.get(beta, 'build')?.content).toBe('beta builds with cargo')
    expect(search(alpha, 'builds').map((h) => h.entry.content)).toEqual(['alpha builds with make'])
    expect(search(beta, 'cargo').map((h) => h.entry.scope)).toEqual(['project'])
    expect(search(alpha, 'cargo')).toEqual([])
    expect(search(userOwner, 'builds').map((h) => h.entry.name)).toEqual(['editor'])
    expect(memory.get(alpha, 'editor')).toBeNull()
    expect(memory.list(beta).map((e) => e.name)).toEqual(['build'])
  })
})
