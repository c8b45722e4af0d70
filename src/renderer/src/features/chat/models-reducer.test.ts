import { describe, expect, it } from 'vitest'
import {
  initialModelsState,
  modelKey,
  modelLabel,
  modelsReducer,
  pickerOptions
} from './models-reducer'

const a = { providerId: 'anthropic', model: 'claude-x' }
const b = { providerId: 'local', model: 'qwen' }

describe('modelsReducer', () => {
  it('loads models and the default', () => {
    const state = modelsReducer(initialModelsState, {
      type: 'loaded',
      models: [a, b],
      defaultModel: b
    })
    expect(state).toMatchObject({ status: 'ready', defaultModel: b })
  })

  it('keeps a session model that settings no longer list', () => {
    const state = modelsReducer(initialModelsState, {
      type: 'loaded',
      models: [a],
      defaultModel: a
    })
    expect(pickerOptions(state, b)).toEqual([b, a])
    expect(pickerOptions(state, a)).toEqual([a])
  })

  it('labels an option with its context window and image support', () => {
    expect(modelLabel({ ...a, contextWindow: 200_000, images: true })).toBe(
      'anthropic / claude-x · 200k · images'
    )
    expect(modelLabel({ ...b, contextWindow: 1_047_576, images: false })).toBe('local / qwen · 1M')
    expect(modelLabel(b)).toBe('local / qwen')
  })

  it('keys models unambiguously', () => {
    expect(modelKey(a)).toBe('anthropic\u0000claude-x')
    expect(modelKey(a)).not.toBe(modelKey(b))
  })
})
