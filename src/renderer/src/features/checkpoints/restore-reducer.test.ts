import { describe, expect, it } from 'vitest'
import type { RestorePlan } from '../../../../shared/checkpoints'
import {
  blockedBecause,
  initialRestoreState,
  restoreReducer,
  restoresFiles,
  rewindsConversation,
  type RestoreAction,
  type RestoreState
} from './restore-reducer'

const plan = (over: Partial<RestorePlan> = {}): RestorePlan => ({
  checkpoint: 'c1',
  changes: [{ path: 'a.txt', change: 'changed' }],
  conflicts: [],
  notCovered: [],
  runningJobs: [],
  ...over
})

const run = (...actions: RestoreAction[]): RestoreState =>
  actions.reduce(restoreReducer, initialRestoreState)

const rewind: RestoreAction = {
  type: 'open',
  request: { kind: 'rewind', sessionId: 's', itemKey: 'user:1', text: 'hi' }
}

describe('the restore dialog’s state', () => {
  it('rewinds files and conversation by default, either alone when chosen', () => {
    const both = run(rewind, { type: 'planned', plan: plan() })
    expect([restoresFiles(both), rewindsConversation(both)]).toEqual([true, true])
    const files = restoreReducer(both, { type: 'scope', scope: 'files' })
    expect([restoresFiles(files), rewindsConversation(files)]).toEqual([true, false])
    const talk = restoreReducer(both, { type: 'scope', scope: 'conversation' })
    expect([restoresFiles(talk), rewindsConversation(talk)]).toEqual([false, true])
    expect(blockedBecause(both)).toBeNull()
  })

  it('waits for the plan, and for a confirmation before replacing outside changes', () => {
    expect(blockedBecause(run(rewind))).toBe('looking at the files…')
    const conflicted = run(rewind, { type: 'planned', plan: plan({ conflicts: ['a.txt'] }) })
    expect(blockedBecause(conflicted)).toMatch(/confirm replacing/)
    expect(
      blockedBecause(restoreReducer(conflicted, { type: 'replace-changed', replace: true }))
    ).toBeNull()
    // Taking back only the conversation replaces no file: nothing to confirm.
    expect(
      blockedBecause(restoreReducer(conflicted, { type: 'scope', scope: 'conversation' }))
    ).toBeNull()
  })

  it('offers only the conversation when no file changed since the message', () => {
    const state = run(rewind, { type: 'planned', plan: plan({ checkpoint: null, changes: [] }) })
    expect(state.scope).toBe('conversation')
    expect(restoresFiles(state)).toBe(false)
    const revert = run(
      {
        type: 'open',
        request: { kind: 'revert', sessionId: 's', checkpoint: 'c', files: ['a'], tool: 'Shell' }
      },
      { type: 'planned', plan: plan({ changes: [] }) }
    )
    expect(blockedBecause(revert)).toBe('nothing has changed since')
  })

  it('keeps a failure on screen and starts clean when opened again', () => {
    const failed = run(rewind, { type: 'busy' }, { type: 'failed', error: 'disk full' })
    expect(failed).toMatchObject({ busy: false, error: 'disk full' })
    expect(restoreReducer(failed, rewind)).toMatchObject({ error: null, plan: null })
  })
})
