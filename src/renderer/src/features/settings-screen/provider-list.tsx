import type { JSX } from 'react'
import { providerKinds, type ProviderDraft } from '../settings'
import { editSettings } from '../settings'

function kindLabel(kind: ProviderDraft['kind']): string {
  return providerKinds.find((k) => k.value === kind)?.label ?? kind
}

/** The configured providers, each with Edit and Remove. */
export function ProviderList({
  providers,
  editing
}: {
  providers: ProviderDraft[]
  editing: number | null
}): JSX.Element | null {
  const dispatch = editSettings
  if (providers.length === 0) return null
  return (
    <ul className="provider-list">
      {providers.map((provider, index) => (
        <li
          key={`${index}:${provider.id}`}
          className={`provider-row${editing === index ? ' provider-row--editing' : ''}`}
          data-testid="provider-row"
          data-provider-id={provider.id}
        >
          <div className="provider-row__main">
            <div className="provider-row__title">
              <span className="mono">{provider.id || '(no id)'}</span>
              <span className="badge badge--neutral">{kindLabel(provider.kind)}</span>
            </div>
            <div className="provider-row__meta">
              {provider.baseUrl && <span className="mono">{provider.baseUrl}</span>}
              <span>
                {provider.keySecret ? (
                  'Key stored securely'
                ) : provider.keyEnv ? (
                  <>
                    Key from <span className="mono">${provider.keyEnv}</span>
                  </>
                ) : (
                  'No key'
                )}
              </span>
              <span>
                {provider.models.length} model{provider.models.length === 1 ? '' : 's'}
              </span>
            </div>
          </div>
          <div className="provider-row__actions">
            <button
              type="button"
              className="button button--small"
              onClick={() => dispatch({ type: 'form-open', index })}
              disabled={editing === index}
            >
              Edit
            </button>
            <button
              type="button"
              className="button button--small button--ghost-danger"
              onClick={() => dispatch({ type: 'remove-provider', index })}
              aria-label={`Remove ${provider.id}`}
            >
              Remove
            </button>
          </div>
        </li>
      ))}
    </ul>
  )
}
