import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { describeIssues, settingsSchema } from '../../../../shared/settings'
import type { SettingsAction, SettingsState } from './settings-reducer'

// The main process's answer to `settings.save`: the same schema, the same words.
vi.mock('../../bridge/client', () => ({
  call: vi.fn((method: string, input: { settings: unknown }) => {
    if (method !== 'settings.save') throw new Error(`unexpected call ${method}`)
    const parsed = settingsSchema.safeParse(input.settings)
    return Promise.resolve(
      parsed.success
        ? { saved: true, issues: [] }
        : { saved: false, issues: describeIssues(parsed.error, settingsSchema) }
    )
  })
}))

let store: typeof import('./settings-store')
const state = (): SettingsState => store.useSettings.getState().state
const dispatch = (action: SettingsAction): void => store.useSettings.getState().dispatch(action)
const halfTyped = { backends: [{ kind: 'http', url: 'https//search' }] }

beforeAll(async () => {
  // Workers keep modules between files: this store must talk to the answer above.
  vi.resetModules()
  store = await import('./settings-store')
})

beforeEach(() => {
  dispatch({ type: 'loaded', path: 'p', settings: { providers: [] }, issues: [] })
})

describe('a value still being typed', () => {
  it('is kept in the draft, sent by Save and reported, then saved once it reads', async () => {
    dispatch({ type: 'section-edit', key: 'websearch', value: halfTyped })
    expect(state().draft.unread.websearch).toEqual(halfTyped)

    expect(await store.saveSettings()).toBe(false)
    expect(state().saveIssues.map((issue) => issue.path)).toEqual(['websearch.backends.0.url'])
    expect(state().draft.unread.websearch).toEqual(halfTyped)
    expect(state().dirty).toBe(true)

    const fixed = { backends: [{ kind: 'http', url: 'https://search.example' }] }
    dispatch({ type: 'section-edit', key: 'websearch', value: fixed })
    expect(state().draft.values.websearch).toEqual(fixed)
    expect(await store.saveSettings()).toBe(true)
    expect(state()).toMatchObject({ dirty: false, saveIssues: [] })
    expect(state().saved.draft.values.websearch).toEqual(fixed)
  })
})
