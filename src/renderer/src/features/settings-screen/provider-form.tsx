import type { JSX } from 'react'
import { describeBaseUrl } from '../../../../shared/base-url'
import { providerPresets } from '../../../../shared/provider-presets'
import type { ProviderKind } from '../../../../shared/settings'
import { keyEnvPlaceholders, providerKinds, type ProviderField } from '../settings'
import type { ProviderForm as FormState } from '../settings'
import { storeSecret, testProvider, editSettings } from '../settings'
import { ReasoningFields } from './reasoning-fields'
import { Button } from '../../ui/button'
import { Field } from '../../ui/field'
import { KeyEntry } from '../../ui/key-entry'
import { Options } from '../../ui/options'
import { TextField } from '../../ui/text-field'

interface Props {
  form: FormState
  canStoreSecrets: boolean
  /** The 0600 file typed keys go to (browser mode, CLI); null when the OS keychain keeps them. */
  keyFile: string | null
  /** Save issues placed on this form's fields. */
  issues: Partial<Record<ProviderField, string>>
  canCancel: boolean
}

/** Adds or edits one provider; Test asks it for its models, which then become its list. */
export function ProviderForm({
  form,
  canStoreSecrets,
  keyFile,
  issues,
  canCancel
}: Props): JSX.Element {
  const dispatch = editSettings
  const { draft, test } = form
  const testIssues = test.status === 'failed' ? test.issues : {}
  // Checked as it is typed, so a malformed URL is named beside the field before any Test.
  const urlIssue = describeBaseUrl(draft.baseUrl) ?? undefined
  const fieldIssue = (field: ProviderField): string | undefined =>
    issues[field] ?? testIssues[field] ?? (field === 'base_url' ? urlIssue : undefined)
  const compatible = draft.kind === 'openai-compatible'
  const set = (field: 'id' | 'baseUrl' | 'keyEnv', value: string): void =>
    dispatch({ type: 'form-field', field, value })

  return (
    <div className="provider-form" data-testid="provider-form">
      <h3 className="provider-form__title">
        {form.editing === null ? 'Add a provider' : `Edit ${draft.id || 'provider'}`}
      </h3>
      <div className="form-grid">
        {form.editing === null && (
          <Field
            className="field--wide"
            label="Preset"
            optional
            hint="Fills in the kind, base URL and key variable; change any of them after."
          >
            {(control) => (
              <select
                {...control}
                className="select"
                data-testid="provider-preset"
                value=""
                onChange={(e) => {
                  const preset = providerPresets.find((p) => p.id === e.target.value)
                  if (preset) dispatch({ type: 'form-preset', preset })
                }}
              >
                <option value="">Choose a preset to fill in the fields…</option>
                <Options of={providerPresets.map((p) => ({ value: p.id, label: p.label }))} />
              </select>
            )}
          </Field>
        )}
        <Field label="Kind">
          {(control) => (
            <select
              {...control}
              className="select"
              data-testid="provider-kind"
              value={draft.kind}
              onChange={(e) =>
                dispatch({ type: 'form-kind', kind: e.target.value as ProviderKind })
              }
            >
              <Options of={providerKinds} />
            </select>
          )}
        </Field>

        <TextField
          label="Id"
          hint="How settings and sessions refer to it, e.g. “work-anthropic”."
          error={fieldIssue('id')}
          errorTestId="issue-id"
          mono
          testId="provider-id"
          value={draft.id}
          onChange={(value) => set('id', value)}
          spellCheck={false}
        />

        <TextField
          className="field--wide"
          label="Base URL"
          required={compatible}
          optional={compatible ? undefined : true}
          hint={
            compatible &&
            'Any server that speaks the OpenAI API: Ollama, LM Studio, vLLM, llama.cpp (llama-server), OpenRouter.'
          }
          error={fieldIssue('base_url')}
          errorTestId="issue-base_url"
          mono
          testId="provider-base-url"
          value={draft.baseUrl}
          placeholder={
            compatible
              ? 'http://127.0.0.1:11434/v1'
              : draft.kind === 'anthropic'
                ? 'https://api.anthropic.com'
                : 'https://api.openai.com/v1'
          }
          onChange={(value) => set('baseUrl', value)}
          spellCheck={false}
        />

        <TextField
          className="field--wide"
          label="API key environment variable"
          optional={compatible ? true : undefined}
          hint={
            <>
              The <em>name</em> of the variable that holds the key, not the key itself. The key is
              never written to the settings file; Mecatl reads it from the environment when it
              starts.
            </>
          }
          error={fieldIssue('api_key_env')}
          errorTestId="issue-api_key_env"
          mono
          testId="provider-key-env"
          value={draft.keyEnv}
          placeholder={keyEnvPlaceholders[draft.kind]}
          onChange={(value) => set('keyEnv', value)}
          spellCheck={false}
          autoComplete="off"
        />

        {canStoreSecrets && (
          <Field
            className="field--wide"
            label={keyFile ? 'Store key in a private file' : 'Store key securely'}
            optional
            hint={
              <span data-testid="provider-secret-where">
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
            }
            error={form.secret.message ?? fieldIssue('api_key_secret')}
            errorTestId="issue-secret"
            below={
              form.secret.status === 'stored' && (
                <p className="field-ok" role="status">
                  {keyFile ? 'Key stored in the private key file.' : 'Key stored securely.'}
                </p>
              )
            }
          >
            {(control) => (
              <KeyEntry
                control={control}
                testId="provider-secret-input"
                value={form.secretValue}
                placeholder={
                  draft.keySecret ? 'Stored — type a new key to replace it' : 'Paste the API key'
                }
                onChange={(value) => dispatch({ type: 'secret-value', value })}
                storeTestId="provider-secret-store"
                storing={form.secret.status === 'storing'}
                onStore={() => void storeSecret()}
              />
            )}
          </Field>
        )}
      </div>

      <div className="provider-form__test">
        <Button
          data-testid="provider-test-button"
          onClick={() => void testProvider()}
          disabled={test.status === 'testing'}
        >
          {test.status === 'testing' ? 'Testing…' : 'Test connection'}
        </Button>
        {canCancel && (
          <Button tone="ghost" onClick={() => dispatch({ type: 'form-close' })}>
            Cancel
          </Button>
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
