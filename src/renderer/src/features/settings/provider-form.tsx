import type { JSX } from 'react'
import { describeBaseUrl } from '../../../../shared/base-url'
import { providerPresets } from '../../../../shared/provider-presets'
import type { ProviderKind } from '../../../../shared/settings'
import { keyEnvPlaceholders, providerKinds, type ProviderField } from './settings-model'
import type { ProviderForm as FormState } from './settings-reducer'
import { storeSecret, testProvider, useSettings } from './settings-store'
import { ReasoningFields } from './reasoning-fields'

interface Props {
  form: FormState
  canStoreSecrets: boolean
  /** The 0600 file typed keys go to (browser mode, CLI); null when the OS keychain keeps them. */
  keyFile: string | null
  /** Save issues placed on this form's fields. */
  issues: Partial<Record<ProviderField, string>>
  canCancel: boolean
}

function FieldError({
  id,
  message
}: {
  id: string
  message: string | undefined
}): JSX.Element | null {
  if (!message) return null
  return (
    <p className="field-error" id={id} data-testid={id}>
      {message}
    </p>
  )
}

/** Adds or edits one provider; Test asks it for its models, which then become its list. */
export function ProviderForm({
  form,
  canStoreSecrets,
  keyFile,
  issues,
  canCancel
}: Props): JSX.Element {
  const dispatch = useSettings((s) => s.dispatch)
  const { draft, test } = form
  const testIssues = test.status === 'failed' ? test.issues : {}
  // Checked as it is typed, so a malformed URL is named beside the field before any Test.
  const urlIssue = describeBaseUrl(draft.baseUrl) ?? undefined
  const fieldIssue = (field: ProviderField): string | undefined =>
    issues[field] ?? testIssues[field] ?? (field === 'base_url' ? urlIssue : undefined)
  const compatible = draft.kind === 'openai-compatible'
  const set = (field: 'id' | 'baseUrl' | 'keyEnv', value: string): void =>
    dispatch({ type: 'form-field', field, value })
  const invalid = (field: ProviderField): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    fieldIssue(field) ? { 'aria-invalid': true, 'aria-describedby': `issue-${field}` } : {}

  return (
    <div className="provider-form" data-testid="provider-form">
      <h3 className="provider-form__title">
        {form.editing === null ? 'Add a provider' : `Edit ${draft.id || 'provider'}`}
      </h3>
      <div className="form-grid">
        {form.editing === null && (
          <label className="field field--wide">
            <span className="field__label">
              Preset <span className="field__optional">optional</span>
            </span>
            <select
              className="select"
              data-testid="provider-preset"
              value=""
              onChange={(e) => {
                const preset = providerPresets.find((p) => p.id === e.target.value)
                if (preset) dispatch({ type: 'form-preset', preset })
              }}
            >
              <option value="">Choose a preset to fill in the fields…</option>
              {providerPresets.map((preset) => (
                <option key={preset.id} value={preset.id}>
                  {preset.label}
                </option>
              ))}
            </select>
            <span className="field__hint">
              Fills in the kind, base URL and key variable; change any of them after.
            </span>
          </label>
        )}
        <label className="field">
          <span className="field__label">Kind</span>
          <select
            className="select"
            data-testid="provider-kind"
            value={draft.kind}
            onChange={(e) => dispatch({ type: 'form-kind', kind: e.target.value as ProviderKind })}
          >
            {providerKinds.map((kind) => (
              <option key={kind.value} value={kind.value}>
                {kind.label}
              </option>
            ))}
          </select>
        </label>

        <label className="field">
          <span className="field__label">Id</span>
          <input
            className="input input--mono"
            data-testid="provider-id"
            value={draft.id}
            onChange={(e) => set('id', e.target.value)}
            spellCheck={false}
            {...invalid('id')}
          />
          <span className="field__hint">
            How settings and sessions refer to it, e.g. “work-anthropic”.
          </span>
          <FieldError id="issue-id" message={fieldIssue('id')} />
        </label>

        <label className="field field--wide">
          <span className="field__label">
            Base URL{' '}
            {compatible ? (
              <span className="field__required">required</span>
            ) : (
              <span className="field__optional">optional</span>
            )}
          </span>
          <input
            className="input input--mono"
            data-testid="provider-base-url"
            value={draft.baseUrl}
            placeholder={
              compatible
                ? 'http://127.0.0.1:11434/v1'
                : draft.kind === 'anthropic'
                  ? 'https://api.anthropic.com'
                  : 'https://api.openai.com/v1'
            }
            onChange={(e) => set('baseUrl', e.target.value)}
            spellCheck={false}
            {...invalid('base_url')}
          />
          {compatible && (
            <span className="field__hint">
              Any server that speaks the OpenAI API: Ollama, LM Studio, vLLM, llama.cpp
              (llama-server), OpenRouter.
            </span>
          )}
          <FieldError id="issue-base_url" message={fieldIssue('base_url')} />
        </label>

        <label className="field field--wide">
          <span className="field__label">
            API key environment variable{' '}
            {compatible && <span className="field__optional">optional</span>}
          </span>
          <input
            className="input input--mono"
            data-testid="provider-key-env"
            value={draft.keyEnv}
            placeholder={keyEnvPlaceholders[draft.kind]}
            onChange={(e) => set('keyEnv', e.target.value)}
            spellCheck={false}
            autoComplete="off"
            {...invalid('api_key_env')}
          />
          <span className="field__hint">
            The <em>name</em> of the variable that holds the key, not the key itself. The key is
            never written to the settings file; Mecatl reads it from the environment when it starts.
          </span>
          <FieldError id="issue-api_key_env" message={fieldIssue('api_key_env')} />
        </label>

        {canStoreSecrets && (
          <div className="field field--wide">
            <span className="field__label">
              {keyFile ? 'Store key in a private file' : 'Store key securely'}{' '}
              <span className="field__optional">optional</span>
            </span>
            <div className="field__row">
              <input
                className="input input--mono"
                type="password"
                data-testid="provider-secret-input"
                aria-label={
                  keyFile ? 'API key to store in a private file' : 'API key to store securely'
                }
                value={form.secretValue}
                placeholder={
                  draft.keySecret ? 'Stored — type a new key to replace it' : 'Paste the API key'
                }
                onChange={(e) => dispatch({ type: 'secret-value', value: e.target.value })}
                autoComplete="off"
              />
              <button
                type="button"
                className="button"
                data-testid="provider-secret-store"
                onClick={() => void storeSecret()}
                disabled={!form.secretValue.trim() || form.secret.status === 'storing'}
              >
                {form.secret.status === 'storing' ? 'Storing…' : 'Store'}
              </button>
            </div>
            <span className="field__hint" data-testid="provider-secret-where">
              {keyFile ? (
                <>
                  Kept in <span className="mono">{keyFile}</span>, a file only you can read (mode
                  0600); settings keep only its name
                </>
              ) : (
                'Encrypted with your system keychain; settings keep only its name'
              )}
              {draft.keySecret ? (
                <>
                  {' '}
                  (<span className="mono">{draft.keySecret}</span>)
                </>
              ) : null}
              .
            </span>
            {form.secret.status === 'stored' && (
              <p className="field-ok" role="status">
                {keyFile ? 'Key stored in the private key file.' : 'Key stored securely.'}
              </p>
            )}
            <FieldError
              id="issue-secret"
              message={form.secret.message ?? fieldIssue('api_key_secret')}
            />
          </div>
        )}
      </div>

      <div className="provider-form__test">
        <button
          type="button"
          className="button"
          data-testid="provider-test-button"
          onClick={() => void testProvider()}
          disabled={test.status === 'testing'}
        >
          {test.status === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        {canCancel && (
          <button
            type="button"
            className="button button--ghost"
            onClick={() => dispatch({ type: 'form-close' })}
          >
            Cancel
          </button>
        )}
      </div>
      {(test.status === 'ok' || test.status === 'failed') && (
        <div
          className={`test-result test-result--${test.status}`}
          data-testid="provider-test-result"
          data-ok={test.status === 'ok' ? 'true' : 'false'}
          role="status"
        >
          {test.status === 'ok' ? (
            <>
              <div className="test-result__title">
                Connected — {test.models.length} model{test.models.length === 1 ? '' : 's'}{' '}
                available
              </div>
              <ul className="test-result__models">
                {test.models.map((model) => (
                  <li key={model} className="mono">
                    {model}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <>
              <div className="test-result__title">The test failed</div>
              <div className="test-result__error">{test.error}</div>
            </>
          )}
        </div>
      )}
      {test.status !== 'ok' && draft.models.length > 0 && (
        <p className="field__hint">
          Models: <span className="mono">{draft.models.join(', ')}</span>
        </p>
      )}
      <ReasoningFields draft={draft} />
    </div>
  )
}
