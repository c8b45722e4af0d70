import { describe, expect, it } from 'vitest'
import type { MemoryEntry, MemoryListItem } from '../../../../shared/memory'
import {
  authorOf,
  initialMemoryState,
  memoryReducer,
  undoQuestion,
  type MemoryEvent,
  type MemoryInspection,
  type MemoryState
} from './memory-reducer'

const entry = (over: Partial<MemoryEntry> = {}): MemoryEntry => ({
  scope: 'project',
  name: 'build',
  version: 'v1',
  state: 'live',
  content: 'npm run build',
  createdAt: 1,
  updatedAt: 1,
  lastKind: 'remember',
  sessionId: 'session-1',
  provenance: { trust: 'trusted', sessionId: 'session-1', folder: '/a' },
  ...over
})
const item = (over: Partial<MemoryEntry> = {}): MemoryListItem => ({
  ...entry(over),
  snippet: { text: 'npm run build', ranges: [] }
})
const inspection = (over: Partial<MemoryEntry> = {}, total = 1): MemoryInspection => ({
  entry: entry(over),
  history: [],
  totalRevisions: total,
  origin: null
})

function run(events: MemoryEvent[], from: MemoryState = initialMemoryState): MemoryState {
  return events.reduce(memoryReducer, from)
}

describe('memoryReducer', () => {
  it('keeps the answer to the latest search, not a slower earlier one', () => {
    const state = run([
      { type: 'list-requested', request: 1 },
      { type: 'list-requested', request: 2 },
      { type: 'list-loaded', request: 2, items: [item({ name: 'newer' })] },
      { type: 'list-loaded', request: 1, items: [item({ name: 'older' })] }
    ])
    expect(state.items.map((i) => i.name)).toEqual(['newer'])
    expect(state.listStatus).toBe('ready')
  })

  it('forgets the selection when the scope or the project changes', () => {
    const selected = run([
      { type: 'workspace', workspace: '/a' },
      { type: 'list-requested', request: 1 },
      { type: 'list-loaded', request: 1, items: [item()] },
      { type: 'select', name: 'build' },
      { type: 'detail-loaded', detail: inspection() }
    ])
    expect(selected.detail?.entry.name).toBe('build')
    for (const event of [
      { type: 'scope', scope: 'user' },
      { type: 'workspace', workspace: '/b' }
    ] satisfies MemoryEvent[]) {
      const after = memoryReducer(selected, event)
      expect(after.selected).toBeNull()
      expect(after.detail).toBeNull()
      expect(after.items).toEqual([])
    }
  })

  it('ignores a detail that arrives for an entry no longer selected', () => {
    const state = run([
      { type: 'select', name: 'other' },
      { type: 'detail-loaded', detail: inspection() }
    ])
    expect(state.detail).toBeNull()
  })

  it('after a forget shows the new state in the detail and dims the row, with a notice', () => {
    const state = run([
      { type: 'list-requested', request: 1 },
      { type: 'list-loaded', request: 1, items: [item(), item({ name: 'other' })] },
      { type: 'select', name: 'build' },
      { type: 'detail-loaded', detail: inspection() },
      { type: 'confirm', action: 'forget' },
      { type: 'action-started' },
      {
        type: 'action-done',
        action: 'forget',
        detail: inspection({ state: 'forgotten', content: null, version: 'v2', lastKind: 'forget' })
      }
    ])
    expect(state.confirming).toBeNull()
    expect(state.busy).toBe(false)
    expect(state.detail?.entry.version).toBe('v2')
    expect(state.items.map((i) => i.state)).toEqual(['forgotten', 'live'])
    expect(state.notice).toBe('Forgot “build”. Undo restores it.')
  })

  it('keeps a refusal visible while the fresh state loads, and drops the confirmation', () => {
    const state = run([
      { type: 'select', name: 'build' },
      { type: 'detail-loaded', detail: inspection() },
      { type: 'confirm', action: 'undo' },
      { type: 'action-started' },
      { type: 'action-failed', error: '“build” changed after it was shown' },
      { type: 'detail-loaded', detail: inspection({ version: 'v3' }) }
    ])
    expect(state.confirming).toBeNull()
    expect(state.actionError).toContain('changed after it was shown')
    expect(state.detail?.entry.version).toBe('v3')
  })
})

describe('what the buttons say', () => {
  it('asks the Undo question that matches the latest change and says what will be left', () => {
    const revision = (content: string | null): MemoryInspection['history'][number] => ({
      version: 'x',
      kind: 'remember',
      content,
      sessionId: null,
      at: 1,
      provenance: { trust: 'trusted', sessionId: null, folder: null }
    })
    const withHistory = (kind: MemoryEntry['lastKind'], before: string | null): string =>
      undoQuestion({
        ...inspection({ lastKind: kind }, 2),
        history: [revision('now'), revision(before)]
      })
    expect(withHistory('forget', 'npm run build')).toBe(
      'Restore “build” as it was before it was forgotten? It will hold “npm run build” again.'
    )
    expect(withHistory('remember', 'make')).toContain('Undo the latest change to “build”?')
    expect(withHistory('undo', null)).toContain(
      'Take back the last Undo of “build”? It will hold nothing'
    )
    expect(undoQuestion(inspection({ lastKind: 'remember' }, 1))).toContain(
      'Undo the creation of “build”? It will hold nothing'
    )
  })

  it('names who made a change', () => {
    expect(authorOf(null)).toBe('you')
    expect(authorOf('cli')).toBe('the command line')
    expect(authorOf('0123456789abcdef')).toBe('session 01234567')
  })
})
