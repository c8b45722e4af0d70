import { useEffect, useState, type JSX } from 'react'
import { builtInPrices, PRICES_TAKEN, type PriceSettings } from '../../../../shared/model-prices'
import { call } from '../../bridge/client'
import { loadSettings, useSettings } from '../settings/settings-store'
import {
  parsePriceDraft,
  priceOverrides,
  pricedProviders,
  withPrice,
  type PriceDraft,
  type PriceField
} from './price-overrides'
import './meters.css'

const emptyDraft: PriceDraft = {
  providerId: '',
  model: '',
  input: '',
  output: '',
  cacheRead: '',
  cacheWrite: ''
}

const usd = (n: number): string => `$${Number(n.toFixed(4))}`

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Settings → Prices: the built-in prices with the day they were taken, and the person's own
 * prices per provider and model (the providers' `prices`). A price is saved at once, on its own,
 * and applies from the next turn; a turn already recorded keeps the cost it had.
 */
export function PricesSection(): JSX.Element {
  const dirty = useSettings((s) => s.state.dirty)
  const [settings, setSettings] = useState<unknown>(null)
  const [draft, setDraft] = useState<PriceDraft>(emptyDraft)
  const [errors, setErrors] = useState<Partial<Record<PriceField, string>>>({})
  const [message, setMessage] = useState<{ kind: 'error' | 'saved'; text: string } | null>(null)
  const [saving, setSaving] = useState(false)

  const reload = (): Promise<void> =>
    call('settings.get', {}).then(
      (result) => setSettings(result.settings),
      (error: unknown) =>
        setMessage({ kind: 'error', text: `Could not read the settings: ${errorText(error)}` })
    )
  useEffect(() => {
    void reload()
  }, [])

  const providers = pricedProviders(settings)
  const overrides = priceOverrides(settings)
  const chosen = providers.find((p) => p.id === draft.providerId)

  const save = async (providerId: string, model: string, entry: PriceSettings | null) => {
    // Saving writes the whole file: other edits not yet saved would be lost or half-applied.
    if (dirty) {
      setMessage({
        kind: 'error',
        text: 'Save or undo your other changes in Settings first, then set the price.'
      })
      return
    }
    setSaving(true)
    try {
      const fresh = (await call('settings.get', {})).settings
      const result = await call('settings.save', {
        settings: withPrice(fresh, providerId, model, entry)
      })
      if (!result.saved) {
        const why = result.issues.map((i) => `${i.path}: ${i.message}`).join('; ')
        setMessage({ kind: 'error', text: `The price was not saved: ${why}` })
        return
      }
      setMessage({
        kind: 'saved',
        text: entry
          ? `Saved: ${model} at ${providerId} is priced from the next turn.`
          : `Removed: ${model} at ${providerId} is priced by the built-in table again, if it is there.`
      })
      if (entry) setDraft({ ...emptyDraft, providerId })
      await reload()
      await loadSettings()
    } catch (error) {
      setMessage({ kind: 'error', text: `The price was not saved: ${errorText(error)}` })
    } finally {
      setSaving(false)
    }
  }

  const submit = (): void => {
    const parsed = parsePriceDraft({
      ...draft,
      providerId: draft.providerId || providers[0]?.id || ''
    })
    if (!parsed.ok) {
      setErrors(parsed.errors)
      return
    }
    setErrors({})
    void save(draft.providerId || providers[0]?.id || '', draft.model.trim(), parsed.entry)
  }

  const field = (name: PriceField, label: string, hint?: string): JSX.Element => (
    <label className="field prices__field">
      <span className="field__label">{label}</span>
      <input
        className="input"
        data-testid={`price-${name}`}
        inputMode="decimal"
        value={draft[name]}
        placeholder={hint}
        aria-invalid={errors[name] ? 'true' : undefined}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
      {errors[name] && <span className="field-error">{errors[name]}</span>}
    </label>
  )

  return (
    <section
      className="settings-section"
      aria-labelledby="prices-heading"
      data-testid="prices-section"
    >
      <h2 id="prices-heading" className="settings-section__title">
        Prices
      </h2>
      <p className="settings-section__hint">
        US dollars per million tokens, for the cost under each turn and in the header. A price set
        here wins over the built-in one and applies from the next turn; a model with no price shows
        tokens only.
      </p>
      {overrides.length > 0 && (
        <table className="prices__table" data-testid="price-overrides">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Model</th>
              <th scope="col">Input</th>
              <th scope="col">Output</th>
              <th scope="col">Cache read</th>
              <th scope="col">Cache write</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {overrides.map((o) => (
              <tr key={`${o.providerId}\n${o.model}`} data-testid="price-override">
                <td>{o.providerId}</td>
                <td className="prices__model">{o.model}</td>
                <td>{usd(o.entry.input)}</td>
                <td>{usd(o.entry.output)}</td>
                <td>{usd(o.entry.cache_read ?? o.entry.input)}</td>
                <td>{usd(o.entry.cache_write ?? o.entry.input)}</td>
                <td>
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={saving}
                    aria-label={`Remove the price of ${o.model} at ${o.providerId}`}
                    onClick={() => void save(o.providerId, o.model, null)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {providers.length === 0 ? (
        <p className="field__hint">Add a provider under Providers to set prices for its models.</p>
      ) : (
        <form
          className="prices__form"
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          <label className="field prices__field">
            <span className="field__label">Provider</span>
            <select
              className="input"
              data-testid="price-providerId"
              value={draft.providerId || providers[0]?.id}
              onChange={(e) => setDraft({ ...draft, providerId: e.target.value })}
            >
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id}
                </option>
              ))}
            </select>
          </label>
          <label className="field prices__field prices__field--model">
            <span className="field__label">Model</span>
            <input
              className="input"
              data-testid="price-model"
              list="price-models"
              value={draft.model}
              aria-invalid={errors.model ? 'true' : undefined}
              onChange={(e) => setDraft({ ...draft, model: e.target.value })}
            />
            <datalist id="price-models">
              {(chosen ?? providers[0])?.models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
            {errors.model && <span className="field-error">{errors.model}</span>}
          </label>
          {field('input', 'Input')}
          {field('output', 'Output')}
          {field('cacheRead', 'Cache read', 'as input')}
          {field('cacheWrite', 'Cache write', 'as input')}
          <button
            type="submit"
            className="button button--primary"
            data-testid="price-save"
            disabled={saving}
          >
            Save price
          </button>
        </form>
      )}
      {message && (
        <p
          className={message.kind === 'error' ? 'field-error' : 'field__hint'}
          role={message.kind === 'error' ? 'alert' : 'status'}
          data-testid="price-message"
        >
          {message.text}
        </p>
      )}
      <details className="prices__builtin">
        <summary>Built-in prices (Anthropic and OpenAI, taken {PRICES_TAKEN})</summary>
        <table className="prices__table" data-testid="price-table">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Input</th>
              <th scope="col">Output</th>
              <th scope="col">Cache read</th>
              <th scope="col">Cache write</th>
            </tr>
          </thead>
          <tbody>
            {builtInPrices().map((row) => (
              <tr key={`${row.kind}/${row.model}`}>
                <td className="prices__model">{row.model}</td>
                <td>{usd(row.price.input)}</td>
                <td>{usd(row.price.output)}</td>
                <td>{usd(row.price.cacheRead)}</td>
                <td>{usd(row.price.cacheWrite)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  )
}
