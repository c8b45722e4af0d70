import { useEffect, type JSX } from 'react'
import { baseName, formatRelative } from '../../lib/format'
import { useNow } from '../../lib/use-now'
import type { MemoryListItem, MemoryScope } from '../../../../shared/memory'
import { useWorkspace } from '../sessions'
import { MemoryDetail } from './memory-detail'
import { openMemory, select, setQuery, useMemory } from './memory-store'
import { UntrustedBadge } from './untrusted-badge'
import { FormError } from '../../ui/form-error'
import { SettingsSection } from '../../ui/settings-section'
import './memory.css'

const scopes: { value: MemoryScope; label: string }[] = [
  { value: 'project', label: 'This project' },
  { value: 'user', label: 'User model' }
]

/** Marks the search words in a snippet, from the ranges the main process found. */
function Highlighted({ text, ranges }: MemoryListItem['snippet']): JSX.Element {
  const parts: JSX.Element[] = []
  let at = 0
  ranges.forEach(([start, end], i) => {
    if (start > at) parts.push(<span key={`t${i}`}>{text.slice(at, start)}</span>)
    parts.push(<mark key={`m${i}`}>{text.slice(start, end)}</mark>)
    at = end
  })
  if (at < text.length) parts.push(<span key="rest">{text.slice(at)}</span>)
  return <>{parts}</>
}

/**
 * The memory browser: what the model remembers about this project and, shared by every project,
 * about the person. Search, look at an entry's history, forget or undo with the tools' rules.
 */
export function MemorySection(): JSX.Element {
  const workspace = useWorkspace()
  const state = useMemory((s) => s.state)
  const now = useNow(30_000)

  useEffect(() => {
    void openMemory(workspace)
  }, [workspace])

  const needsFolder = state.scope === 'project' && !workspace
  const empty =
    state.listStatus === 'ready' && state.items.length === 0 && !needsFolder
      ? state.query.trim()
        ? `Nothing matches “${state.query.trim()}”.`
        : state.scope === 'project'
          ? 'Nothing remembered for this project yet. The model saves notes here with Remember.'
          : 'The user model is empty. The model saves what it learns about you with RememberUser.'
      : null

  return (
    <SettingsSection
      name="memory"
      title="Memory"
      testId="memory-section"
      intro="Notes the model keeps between sessions: this project’s own, and the user model that every project shares. Forget and Undo act on the version shown, as the model’s do."
    >
      <div className="memory-toolbar">
        <div className="memory-scopes" role="tablist" aria-label="Memory scope">
          {scopes.map((scope) => (
            <button
              key={scope.value}
              type="button"
              role="tab"
              aria-selected={state.scope === scope.value}
              className={`memory-scope${state.scope === scope.value ? ' memory-scope--active' : ''}`}
              data-testid={`memory-scope-${scope.value}`}
              onClick={() => void openMemory(workspace, scope.value)}
            >
              {scope.label}
            </button>
          ))}
        </div>
        <input
          className="input memory-search"
          type="search"
          placeholder={
            state.scope === 'project' ? 'Search this project’s memory' : 'Search the user model'
          }
          aria-label="Search memory"
          data-testid="memory-search"
          value={state.query}
          disabled={needsFolder}
          onChange={(e) => void setQuery(e.target.value)}
        />
      </div>
      {state.scope === 'project' && workspace && (
        <p className="field__hint">
          Remembered for <span className="mono">{baseName(workspace)}</span> only.
        </p>
      )}
      {state.scope === 'user' && (
        <p className="field__hint">What the model has learnt about you, shared by every project.</p>
      )}
      {needsFolder && (
        <p className="field__hint">Open a project folder to see the memory it keeps.</p>
      )}
      <FormError error={state.listError}>The memory could not be read: {state.listError}</FormError>

      {!needsFolder && (
        <div className="memory-browser">
          <ul className="memory-list" data-testid="memory-list" aria-label="Memories">
            {state.items.map((item) => (
              <li key={item.name}>
                <button
                  type="button"
                  className={`memory-item${item.name === state.selected ? ' memory-item--selected' : ''}${item.state === 'forgotten' ? ' memory-item--forgotten' : ''}`}
                  data-testid="memory-item"
                  data-name={item.name}
                  data-state={item.state}
                  aria-current={item.name === state.selected}
                  onClick={() => void select(item.name)}
                >
                  <span className="memory-item__top">
                    <span className="memory-item__name">{item.name}</span>
                    {item.state === 'live' && <UntrustedBadge provenance={item.provenance} />}
                    <span className="memory-item__when">
                      {item.state === 'forgotten'
                        ? 'forgotten'
                        : formatRelative(item.updatedAt, now)}
                    </span>
                  </span>
                  {item.snippet.text && (
                    <span className="memory-item__snippet">
                      <Highlighted {...item.snippet} />
                    </span>
                  )}
                </button>
              </li>
            ))}
            {empty && <li className="memory-list__empty muted">{empty}</li>}
          </ul>
          <MemoryDetail state={state} now={now} />
        </div>
      )}
    </SettingsSection>
  )
}
