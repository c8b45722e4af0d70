import { withModelReasoning, type ModelReasoning } from '../../../../shared/reasoning'
import type { ModelRef } from '../../../../shared/domain'
import type { ProviderPreset } from '../../../../shared/provider-presets'
import type { ProviderKind, SettingsIssue } from '../../../../shared/settings'
import { withModelPrice, type PriceSettings } from '../../../../shared/model-prices'
import { draftReducer, type DraftAction } from './draft-reducer'
import { emptySettingsDraft } from './draft-values'
import { rebased } from './settings-rebase'
import {
  buildSettings,
  emptyDraft,
  placeProviderIssues,
  readSettings,
  freeId,
  suggestId,
  type ProviderDraft,
  type ProviderField,
  type SettingsView
} from './settings-model'

export type TestState =
  | { status: 'idle' }
  | { status: 'testing' }
  | { status: 'ok'; models: string[] }
  | { status: 'failed'; error: string; issues: Partial<Record<ProviderField, string>> }

export interface ProviderForm {
  open: boolean
  /** The index of the provider being edited, or null when adding one. */
  editing: number | null
  draft: ProviderDraft
  /** The person changed something: only then does Save include an added provider. */
  touched: boolean
  idEdited: boolean
  test: TestState
  secretValue: string
  secret: { status: 'idle' | 'storing' | 'stored' | 'failed'; message: string | null }
}

export interface SettingsState extends SettingsView {
  status: 'idle' | 'loading' | 'ready' | 'error'
  loadError: string | null
  path: string
  /** Problems with the file as it is on disk. */
  fileIssues: SettingsIssue[]
  form: ProviderForm
  saving: boolean
  saveIssues: SettingsIssue[]
  saveError: string | null
  /** Where the form's provider sat in the array last sent, to put issues next to its fields. */
  formIndex: number | null
  dirty: boolean
  savedAt: number | null
  /** The settings as last read or written: what "unsaved" is against. */
  saved: SettingsView
}

type DraftField = 'id' | 'baseUrl' | 'keyEnv' | 'keySecret'

export type SettingsAction =
  | { type: 'load-started' }
  | { type: 'loaded'; path: string; settings: unknown; issues: SettingsIssue[] }
  | { type: 'load-failed'; error: string }
  | { type: 'form-open'; index: number | null }
  | { type: 'form-close' }
  | { type: 'form-kind'; kind: ProviderKind }
  /** Fills the form from a preset of shared/provider-presets.ts (Ollama, OpenRouter…). */
  | { type: 'form-preset'; preset: ProviderPreset }
  | { type: 'form-field'; field: DraftField; value: string }
  | { type: 'form-reasoning'; model: string; reasoning: ModelReasoning | null }
  | { type: 'test-started' }
  | { type: 'test-ok'; models: string[] }
  | { type: 'test-failed'; error: string; issues: SettingsIssue[] }
  | { type: 'secret-value'; value: string }
  | { type: 'secret-started' }
  | { type: 'secret-stored'; name: string }
  | { type: 'secret-failed'; error: string }
  | { type: 'remove-provider'; index: number }
  | { type: 'default-model'; model: ModelRef | null }
  | DraftAction
  /**
   * The file was written outside the Save bar (Always allow, another window): what is saved now.
   * A setting the person has not edited here takes it; an edit of theirs is kept.
   */
  | { type: 'file-changed'; settings: unknown; issues: SettingsIssue[] }
  | { type: 'save-started'; formIndex: number | null }
  /** A price of one model of one provider, set (or removed, with null) in the draft. */
  | { type: 'price-set'; providerId: string; model: string; entry: PriceSettings | null }
  /** `settings` is what was written; without it, what the screen holds now. */
  | { type: 'saved'; providers: ProviderDraft[]; at: number; settings?: SettingsView }
  | { type: 'save-rejected'; issues: SettingsIssue[] }
  | { type: 'save-failed'; error: string }

function closedForm(providers: readonly ProviderDraft[]): ProviderForm {
  return {
    open: false,
    editing: null,
    draft: emptyDraft(
      'anthropic',
      providers.map((p) => p.id)
    ),
    touched: false,
    idEdited: false,
    test: { status: 'idle' },
    secretValue: '',
    secret: { status: 'idle', message: null }
  }
}

const emptyView: SettingsView = { draft: emptySettingsDraft, providers: [], defaultModel: null }

export const initialSettingsState: SettingsState = {
  status: 'idle',
  loadError: null,
  path: '',
  fileIssues: [],
  ...emptyView,
  form: closedForm([]),
  saving: false,
  saveIssues: [],
  saveError: null,
  formIndex: null,
  dirty: false,
  savedAt: null,
  saved: emptyView
}

/** Whether Save sends the form's provider: always when editing, when adding only once touched. */
export function formIncluded(form: ProviderForm): boolean {
  return form.open && (form.editing !== null || form.touched)
}

/** The providers Save would write, with the form merged in, and where the form's one sits. */
export function providersToSave(state: SettingsState): {
  providers: ProviderDraft[]
  formIndex: number | null
} {
  if (!formIncluded(state.form)) return { providers: state.providers, formIndex: null }
  const { editing, draft } = state.form
  if (editing !== null && editing < state.providers.length) {
    const providers = state.providers.slice()
    providers[editing] = draft
    return { providers, formIndex: editing }
  }
  return { providers: [...state.providers, draft], formIndex: state.providers.length }
}

function editForm(state: SettingsState, form: Partial<ProviderForm>): SettingsState {
  return { ...state, form: { ...state.form, ...form, touched: true }, dirty: true }
}

/**
 * The file as read now, under what this window holds: a setting edited here keeps the edit, one
 * left alone takes what is on disk (see settings-rebase.ts).
 */
function rebasedOnDisk(state: SettingsState, raw: unknown): SettingsState {
  const disk = readSettings(raw)
  const mine = buildSettings(state, state.providers)
  const saved = buildSettings(state.saved, state.saved.providers)
  const view = readSettings(rebased(saved, mine, buildSettings(disk, disk.providers)))
  return { ...state, ...view, saved: disk }
}

function withDraft(state: SettingsState, draft: Partial<ProviderDraft>): SettingsState {
  // A changed provider invalidates the last test, so its result no longer shows as current.
  return editForm(state, { draft: { ...state.form.draft, ...draft }, test: { status: 'idle' } })
}

export function settingsReducer(state: SettingsState, action: SettingsAction): SettingsState {
  switch (action.type) {
    case 'load-started':
      // The screen is about to show the file: an edit from here on is made over what it shows.
      return { ...state, status: 'loading', loadError: null, dirty: false }
    case 'loaded': {
      // An edit made while the file was being read stays: a late answer must not undo a click.
      if (state.dirty) {
        const merged = rebasedOnDisk(state, action.settings)
        return { ...merged, status: 'ready', path: action.path, fileIssues: action.issues }
      }
      const view = readSettings(action.settings)
      return {
        ...initialSettingsState,
        ...view,
        status: 'ready',
        path: action.path,
        fileIssues: action.issues,
        form: { ...closedForm(view.providers), open: view.providers.length === 0 },
        savedAt: state.savedAt,
        saved: view
      }
    }
    case 'load-failed':
      return { ...state, status: 'error', loadError: action.error }
    case 'form-open': {
      const existing = action.index === null ? undefined : state.providers[action.index]
      const form = closedForm(state.providers)
      return {
        ...state,
        saveIssues: [],
        formIndex: null,
        form: existing
          ? { ...form, open: true, editing: action.index, draft: { ...existing }, idEdited: true }
          : { ...form, open: true }
      }
    }
    case 'form-close':
      return { ...state, form: closedForm(state.providers), formIndex: null, saveIssues: [] }
    case 'form-kind': {
      const taken = state.providers.filter((_, i) => i !== state.form.editing).map((p) => p.id)
      const id = state.form.idEdited ? state.form.draft.id : suggestId(action.kind, taken)
      return withDraft(state, { kind: action.kind, id })
    }
    case 'form-preset': {
      const { preset } = action
      const taken = state.providers.filter((_, i) => i !== state.form.editing).map((p) => p.id)
      const id = state.form.idEdited ? state.form.draft.id : freeId(preset.id, taken)
      return withDraft(state, {
        kind: preset.kind,
        id,
        baseUrl: preset.baseUrl,
        keyEnv: preset.keyEnv ?? ''
      })
    }
    case 'form-reasoning': {
      const extra = withModelReasoning(state.form.draft.extra ?? {}, action.model, action.reasoning)
      return withDraft(state, { extra: Object.keys(extra).length > 0 ? extra : undefined })
    }
    case 'form-field': {
      const next = withDraft(state, { [action.field]: action.value })
      if (action.field !== 'id') return next
      // A default model picked from this provider follows it to its new id.
      const oldId = state.form.draft.id.trim()
      const followsId = !!oldId && state.defaultModel?.providerId === oldId
      return {
        ...next,
        form: { ...next.form, idEdited: true },
        defaultModel:
          followsId && state.defaultModel
            ? { ...state.defaultModel, providerId: action.value.trim() }
            : next.defaultModel
      }
    }
    case 'test-started':
      return { ...state, form: { ...state.form, test: { status: 'testing' } } }
    case 'test-ok': {
      const draft = { ...state.form.draft, models: action.models }
      const id = draft.id.trim()
      // First models ever seen: make one the default so the app works right after saving.
      const defaultModel =
        state.defaultModel ??
        (id && action.models[0] ? { providerId: id, model: action.models[0] } : null)
      return {
        ...state,
        dirty: true,
        defaultModel,
        form: { ...state.form, draft, touched: true, test: { status: 'ok', models: action.models } }
      }
    }
    case 'test-failed':
      return {
        ...state,
        form: {
          ...state.form,
          test: {
            status: 'failed',
            error: action.error,
            issues: placeProviderIssues(action.issues)
          }
        }
      }
    case 'secret-value':
      return { ...state, form: { ...state.form, secretValue: action.value } }
    case 'secret-started':
      return { ...state, form: { ...state.form, secret: { status: 'storing', message: null } } }
    case 'secret-stored': {
      const next = withDraft(state, { keySecret: action.name })
      return {
        ...next,
        form: { ...next.form, secretValue: '', secret: { status: 'stored', message: null } }
      }
    }
    case 'secret-failed':
      return {
        ...state,
        form: { ...state.form, secret: { status: 'failed', message: action.error } }
      }
    case 'remove-provider': {
      const removed = state.providers[action.index]
      if (!removed) return state
      const providers = state.providers.filter((_, i) => i !== action.index)
      const defaultModel = state.defaultModel?.providerId === removed.id ? null : state.defaultModel
      const editing = state.form.editing
      // Keep an edit pointing at the same provider; drop one that pointed at the removed one.
      const form =
        editing === null
          ? state.form
          : editing === action.index
            ? closedForm(providers)
            : { ...state.form, editing: editing > action.index ? editing - 1 : editing }
      return { ...state, providers, defaultModel, form, dirty: true, saveIssues: [] }
    }
    case 'default-model':
      return { ...state, defaultModel: action.model, dirty: true }
    case 'section-edit':
    case 'mode':
    case 'rule-add':
    case 'rule-remove':
    case 'mcp-server-put':
    case 'mcp-server-remove':
    case 'mcp-server-enabled':
    case 'mcp-tool-enabled':
    case 'mcp-servers-add':
      return { ...state, draft: draftReducer(state.draft, action), dirty: true }
    case 'file-changed': {
      if (state.status !== 'ready') return state
      return { ...rebasedOnDisk(state, action.settings), fileIssues: action.issues }
    }
    case 'price-set': {
      const priced = (draft: ProviderDraft): ProviderDraft => {
        if (draft.id.trim() !== action.providerId) return draft
        const extra = withModelPrice(draft.extra ?? {}, action.model, action.entry)
        return { ...draft, extra: Object.keys(extra).length > 0 ? extra : undefined }
      }
      // The provider open in the form is saved from the form: price it there too.
      return {
        ...state,
        providers: state.providers.map(priced),
        form: { ...state.form, draft: priced(state.form.draft) },
        dirty: true
      }
    }
    case 'save-started':
      return { ...state, saving: true, saveError: null, formIndex: action.formIndex }
    case 'saved':
      return {
        ...state,
        providers: action.providers,
        form: closedForm(action.providers),
        saving: false,
        saveIssues: [],
        formIndex: null,
        dirty: false,
        savedAt: action.at,
        saved: action.settings ?? {
          draft: state.draft,
          providers: action.providers,
          defaultModel: state.defaultModel
        }
      }
    case 'save-rejected':
      // Everything typed stays; only the issues are new.
      return { ...state, saving: false, saveIssues: action.issues }
    case 'save-failed':
      return { ...state, saving: false, saveError: action.error }
  }
}
