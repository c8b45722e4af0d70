import type { JSX } from 'react'
import { useSettings } from '../settings/settings-store'
import { useSandboxStatus } from './use-sandbox-status'
import { choice, linesOf, sandboxOf, withChoice, withLines, type RawSandbox } from './sandbox-model'

const lists: { key: string; label: string; hint: string }[] = [
  { key: 'allowed_hosts', label: 'Allowed hosts', hint: 'With "Allowlist": one host a line.' },
  { key: 'writable', label: 'Also writable', hint: 'Paths beside the project folder.' },
  { key: 'readable', label: 'Also readable', hint: 'Exceptions inside a denied path.' },
  { key: 'deny_read', label: 'Never readable', hint: 'Beside ~/.ssh, ~/.aws and the rest.' }
]

/** Settings → Permissions → Sandbox: where Shell's commands run, and what it says now. */
export function SandboxSettings(): JSX.Element {
  const base = useSettings((s) => s.state.base)
  const dispatch = useSettings((s) => s.dispatch)
  const status = useSandboxStatus()
  const sandbox = sandboxOf(base)
  const update = (next: RawSandbox): void =>
    dispatch({ type: 'base-set', key: 'sandbox', value: next })

  return (
    <div className="sandbox-settings" data-testid="sandbox-settings">
      <h3 className="sandbox-settings__title">Sandbox</h3>
      {status && (
        <p
          className={`sandbox-status sandbox-status--${status.state}`}
          data-testid="sandbox-status"
          role={status.state === 'refused' ? 'alert' : undefined}
        >
          Shell: {status.text}
        </p>
      )}
      <div className="sandbox-settings__row">
        <label className="field">
          <span className="field__label">Backend</span>
          <select
            className="select select--compact"
            data-testid="sandbox-kind"
            value={choice(sandbox, 'kind')}
            onChange={(e) => update(withChoice(sandbox, 'kind', e.target.value))}
          >
            <option value="">This system’s (default)</option>
            <option value="bwrap">bubblewrap</option>
            <option value="seatbelt">sandbox-exec (macOS)</option>
            <option value="none">No sandbox: commands run as you</option>
          </select>
        </label>
        <label className="field">
          <span className="field__label">Network</span>
          <select
            className="select select--compact"
            data-testid="sandbox-network"
            value={choice(sandbox, 'network') || 'off'}
            onChange={(e) => update(withChoice(sandbox, 'network', e.target.value))}
          >
            <option value="off">Off</option>
            <option value="allowlist">Allowlist</option>
            <option value="on">On</option>
          </select>
        </label>
      </div>
      {choice(sandbox, 'kind') === 'none' && (
        <p className="field-error" data-testid="sandbox-none-warning">
          Without a sandbox, a command can read your secrets, change anything you can and reach the
          network.
        </p>
      )}
      <div className="sandbox-settings__lists">
        {lists.map((list) => (
          <label key={list.key} className="field">
            <span className="field__label">{list.label}</span>
            <textarea
              // Remade when the file changes under the screen, so the box shows what it says.
              key={linesOf(sandbox, list.key)}
              className="input sandbox-settings__list"
              rows={2}
              data-testid={`sandbox-${list.key}`}
              defaultValue={linesOf(sandbox, list.key)}
              onBlur={(e) => update(withLines(sandbox, list.key, e.target.value))}
            />
            <span className="field__hint">{list.hint}</span>
          </label>
        ))}
      </div>
    </div>
  )
}
