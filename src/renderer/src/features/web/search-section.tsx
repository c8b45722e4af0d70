import { useState, type JSX } from 'react'
import type { SearchBackendKind } from '../../../../shared/websearch'
import { defaultKeyEnv } from '../../../../shared/websearch'
import { ArrowDownIcon, ArrowUpIcon, CloseIcon, PlusIcon } from '../../lib/icons'
import { useApp } from '../../app/app-store'
import { editSetting, useSettingsFile } from '../settings'
import {
  addBackend,
  backendKinds,
  backendsOf,
  isEnabled,
  kindLabel,
  moveBackend,
  removeBackend,
  searchEnabled,
  setBackendField,
  setSearchEnabled,
  text,
  websearchOf,
  type RawBackend,
  type RawWebsearch
} from './search-model'
import { SearchTest } from './search-test'
import { StoreKey } from './store-key'
import { Button } from '../../ui/button'
import { Check } from '../../ui/check'
import { Field } from '../../ui/field'
import { Options } from '../../ui/options'
import { SettingsSection } from '../../ui/settings-section'
import { TextField, type TextFieldProps } from '../../ui/text-field'
import './web.css'

/** Settings → Search: WebSearch's chain of backends, edited in place and saved with the rest. */
export function SearchSection(): JSX.Element {
  const base = useSettingsFile()
  const canStoreSecrets = useApp((s) => s.state.info?.canStoreSecrets ?? false)
  const [adding, setAdding] = useState<SearchBackendKind>('exa')
  const websearch = websearchOf(base)
  const backends = backendsOf(websearch)
  const update = (next: RawWebsearch): void => editSetting('websearch', next)

  return (
    <SettingsSection
      name="search"
      title="Search"
      testId="search-section"
      intro="WebSearch tries these in order and the first that answers wins, so a rate-limited one falls through to the next. Keys stay out of the settings file."
      aside={
        <Check
          className="search-toggle"
          testId="search-enabled"
          checked={searchEnabled(websearch)}
          onChange={(on) => update(setSearchEnabled(websearch, on))}
        >
          Web search
        </Check>
      }
    >
      {backends.length === 0 && (
        <p className="muted" data-testid="search-empty">
          No backend listed: WebSearch uses the services named by EXA_API_KEY, BRAVE_API_KEY or
          SEARXNG_URL if set, then Exa&apos;s public endpoint without a key. Backends added here are
          tried first. WebFetch needs none.
        </p>
      )}
      <ol className="search-chain">
        {backends.map((backend, index) => (
          <BackendRow
            key={index}
            backend={backend}
            index={index}
            last={index === backends.length - 1}
            canStoreSecrets={canStoreSecrets}
            websearch={websearch}
            update={update}
          />
        ))}
      </ol>

      <div className="search-add">
        <select
          className="select select--compact"
          aria-label="Backend to add"
          data-testid="search-add-kind"
          value={adding}
          onChange={(e) => setAdding(e.target.value as SearchBackendKind)}
        >
          <Options of={backendKinds.map((k) => ({ value: k.kind, label: k.label }))} />
        </select>
        <Button
          data-testid="search-add-button"
          onClick={() => update(addBackend(websearch, adding))}
        >
          <PlusIcon /> Add backend
        </Button>
      </div>

      <SearchTest websearch={websearch} />
    </SettingsSection>
  )
}

interface RowProps {
  backend: RawBackend
  index: number
  last: boolean
  canStoreSecrets: boolean
  websearch: RawWebsearch
  update: (next: RawWebsearch) => void
}

function BackendRow({
  backend,
  index,
  last,
  canStoreSecrets,
  websearch,
  update
}: RowProps): JSX.Element {
  const kind = backend.kind as SearchBackendKind
  const set = (field: string, value: string | boolean): void =>
    update(setBackendField(websearch, index, field, value))
  const hint = backendKinds.find((k) => k.kind === kind)?.hint
  const keyEnv = defaultKeyEnv(kind)
  const enabled = isEnabled(backend)
  return (
    <li
      className={`search-backend${enabled ? '' : ' search-backend--off'}`}
      data-testid="search-backend"
      data-kind={kind}
    >
      <div className="search-backend__head">
        <span className="search-backend__order">{index + 1}</span>
        <span className="search-backend__kind">{kindLabel(kind)}</span>
        <Check
          className="search-backend__enabled"
          testId="search-backend-enabled"
          checked={enabled}
          onChange={(on) => set('enabled', on)}
        >
          Enabled
        </Check>
        {(
          [
            { name: 'up', label: 'Move up', icon: ArrowUpIcon, off: index === 0, by: -1 },
            { name: 'down', label: 'Move down', icon: ArrowDownIcon, off: last, by: 1 }
          ] as const
        ).map(({ name, label, icon: Icon, off, by }) => (
          <Button
            key={name}
            tone="ghost"
            small
            aria-label={label}
            disabled={off}
            data-testid={`search-backend-${name}`}
            onClick={() => update(moveBackend(websearch, index, by))}
          >
            <Icon size={13} />
          </Button>
        ))}
        <Button
          tone="ghost-danger"
          small
          aria-label="Remove"
          data-testid="search-backend-remove"
          onClick={() => update(removeBackend(websearch, index))}
        >
          <CloseIcon size={13} />
        </Button>
      </div>
      {hint && <p className="field__hint">{hint}</p>}
      <div className="search-backend__fields">
        {kind !== 'brave' && (
          <BackendField
            label={kind === 'http' ? 'URL' : 'URL (optional)'}
            value={text(backend.url)}
            placeholder={
              kind === 'exa'
                ? 'https://mcp.exa.ai/mcp'
                : kind === 'searxng'
                  ? 'https://search.example.org (or SEARXNG_URL)'
                  : 'https://api.example.com/search'
            }
            testId="search-backend-url"
            onChange={(v) => set('url', v)}
          />
        )}
        {kind === 'http' && (
          <>
            <BackendField
              label="Query parameter"
              value={text(backend.query_param)}
              placeholder="q"
              testId="search-backend-param"
              onChange={(v) => set('query_param', v)}
            />
            <Field label="Key sent as">
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={text(backend.auth) || 'bearer'}
                  onChange={(e) => set('auth', e.target.value === 'bearer' ? '' : e.target.value)}
                >
                  <option value="bearer">Authorization: Bearer</option>
                  <option value="header">A named header</option>
                  <option value="none">No key</option>
                </select>
              )}
            </Field>
            {backend.auth === 'header' && (
              <BackendField
                label="Header name"
                value={text(backend.auth_header)}
                placeholder="X-API-Key"
                testId="search-backend-header"
                onChange={(v) => set('auth_header', v)}
              />
            )}
          </>
        )}
        {keyEnv && (
          <BackendField
            label="Key environment variable"
            value={text(backend.api_key_env)}
            placeholder={keyEnv}
            testId="search-backend-key-env"
            onChange={(v) => set('api_key_env', v)}
          />
        )}
      </div>
      {keyEnv && canStoreSecrets && (
        <StoreKey
          kind={kind}
          index={index}
          stored={text(backend.api_key_secret)}
          onStored={(name) => set('api_key_secret', name)}
        />
      )}
    </li>
  )
}

/** A backend's text setting: a name, an address or a variable, typed as code is. */
function BackendField(
  props: Pick<TextFieldProps, 'label' | 'value' | 'placeholder' | 'testId' | 'onChange'>
): JSX.Element {
  return <TextField {...props} mono spellCheck={false} autoComplete="off" />
}
