import type { ModelRef } from '../../../../shared/domain'
import { formatTokens, type ModelInfo } from '../../../../shared/models'

export interface ModelsState {
  status: 'idle' | 'loading' | 'ready' | 'error'
  models: ModelInfo[]
  defaultModel: ModelRef | null
  error: string | null
}

export type ModelsAction =
  | { type: 'loading' }
  | { type: 'loaded'; models: ModelInfo[]; defaultModel: ModelRef | null }
  | { type: 'failed'; error: string }

export const initialModelsState: ModelsState = {
  status: 'idle',
  models: [],
  defaultModel: null,
  error: null
}

export function modelsReducer(state: ModelsState, action: ModelsAction): ModelsState {
  switch (action.type) {
    case 'loading':
      return { ...state, status: 'loading', error: null }
    case 'loaded':
      return {
        status: 'ready',
        models: action.models,
        defaultModel: action.defaultModel,
        error: null
      }
    case 'failed':
      return { ...state, status: 'error', error: action.error }
  }
}

/** A <select> value for a model; a NUL cannot occur in either half. */
export function modelKey(model: ModelRef): string {
  return `${model.providerId}\u0000${model.model}`
}

export function sameModel(a: ModelRef | null, b: ModelRef | null): boolean {
  return !!a && !!b && a.providerId === b.providerId && a.model === b.model
}

/**
 * The options the picker shows: every known model, plus the session's own model when settings
 * no longer list it, so the picker never pretends the session uses something else.
 */
export function pickerOptions(state: ModelsState, current: ModelRef | null): ModelInfo[] {
  if (!current || state.models.some((m) => sameModel(m, current))) return state.models
  return [current, ...state.models]
}

/** An option's text: "provider / model · 200k · images", from the same inventory as DiscoverModels. */
export function modelLabel(model: ModelInfo): string {
  const parts = [`${model.providerId} / ${model.model}`]
  if (model.contextWindow !== undefined) parts.push(formatTokens(model.contextWindow))
  if (model.images) parts.push('images')
  return parts.join(' · ')
}
