import { useMemo, useState, type JSX } from 'react'
import { builtInPrices, PRICES_TAKEN, type PriceSettings } from '../../../../shared/model-prices'
import {
  providerToSettings,
  providersToSave,
  setModelPrice,
  useSettingsView,
  SettingsCard
} from '../settings'
import {
  parsePriceDraft,
  priceOverrides,
  pricedProviders,
  type PriceDraft,
  type PriceField
} from './price-overrides'
import { Field } from '../../ui/field'
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

/**
 * Settings → Prices: the built-in prices with the day they were taken, and the person's own
 * prices per provider and model (the providers' `prices`). Adding or removing a price edits the
 * settings draft; the Save bar writes it, and it applies from the next turn. A turn already
 * recorded keeps the cost it had.
 */
export function PricesSection(): JSX.Element {
  const state = useSettingsView((s) => s)
  const [draft, setDraft] = useState<PriceDraft>(emptyDraft)
  const [errors, setErrors] = useState<Partial<Record<PriceField, string>>>({})
  const [message, setMessage] = useState<string | null>(null)

  // The draft as Save would write it, so a price added a moment ago is listed before Save.
  const settings = useMemo(
    () => ({ providers: providersToSave(state).providers.map(providerToSettings) }),
    [state]
  )
  const providers = pricedProviders(settings)
  const overrides = priceOverrides(settings)
  const chosen = providers.find((p) => p.id === draft.providerId)

  const setPrice = (providerId: string, model: string, entry: PriceSettings | null): void => {
    setModelPrice(providerId, model, entry)
    setMessage(
      entry
        ? `${model} at ${providerId} is priced once you save.`
        : `${model} at ${providerId} goes back to the built-in price, if there is one, once you save.`
    )
    if (entry) setDraft({ ...emptyDraft, providerId })
  }

  const submit = (): void => {
    const providerId = draft.providerId || providers[0]?.id || ''
    const parsed = parsePriceDraft({ ...draft, providerId })
    if (!parsed.ok) {
      setErrors(parsed.errors)
      return
    }
    setErrors({})
    setPrice(providerId, draft.model.trim(), parsed.entry)
  }

  const field = (name: PriceField, label: string, hint?: string): JSX.Element => (
    <Field className="prices__field" label={label} error={errors[name]}>
      {(control) => (
        <input
          {...control}
          className="input"
          data-testid={`price-${name}`}
          inputMode="decimal"
          value={draft[name]}
          placeholder={hint}
          onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
        />
      )}
    </Field>
  )

  return (
    <SettingsCard name="prices" title="Prices" testId="prices-section">
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
                    aria-label={`Remove the price of ${o.model} at ${o.providerId}`}
                    onClick={() => setPrice(o.providerId, o.model, null)}
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
          <Field className="prices__field" label="Provider">
            {(control) => (
              <select
                {...control}
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
            )}
          </Field>
          <Field
            className="prices__field prices__field--model"
            label="Model"
            error={errors.model}
            below={
              <datalist id="price-models">
                {(chosen ?? providers[0])?.models.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
            }
          >
            {(control) => (
              <input
                {...control}
                className="input"
                data-testid="price-model"
                list="price-models"
                value={draft.model}
                onChange={(e) => setDraft({ ...draft, model: e.target.value })}
              />
            )}
          </Field>
          {field('input', 'Input')}
          {field('output', 'Output')}
          {field('cacheRead', 'Cache read', 'as input')}
          {field('cacheWrite', 'Cache write', 'as input')}
          <button type="submit" className="button" data-testid="price-add">
            Add price
          </button>
        </form>
      )}
      {message && (
        <p className="field__hint" role="status" data-testid="price-message">
          {message}
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
    </SettingsCard>
  )
}
