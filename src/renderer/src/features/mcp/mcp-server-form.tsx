import type { JSX } from 'react'
import type { Capabilities } from '../../../../shared/domain'
import type { DraftField } from './mcp-model'
import type { ServerForm } from './mcp-reducer'
import { applyServerForm } from './mcp-draft'
import { useMcp } from './mcp-store'
import { FieldError, LocalFields, RemoteFields } from './mcp-server-fields'
import { Button } from '../../ui/button'
import { Check } from '../../ui/check'
import { TextField } from '../../ui/text-field'

const kinds: { kind: ServerForm['draft']['kind']; label: string }[] = [
  { kind: 'command', label: 'On this machine (a command)' },
  { kind: 'url', label: 'Remote (an address)' }
]

/** The cautions a person can add to what the server says of its tools. */
const forces: { key: 'forceUntrusted' | 'forceDestructive'; testId: string; label: string }[] = [
  { key: 'forceUntrusted', testId: 'mcp-force-untrusted', label: 'Untrusted input' },
  { key: 'forceDestructive', testId: 'mcp-force-destructive', label: 'Destructive' }
]

/**
 * Adds or edits one server in the settings draft; the Save bar writes it, and then it starts,
 * restarts or stops.
 */
export function McpServerForm({ form }: { form: ServerForm }): JSX.Element {
  const dispatch = useMcp((s) => s.dispatch)
  const { draft, issues } = form
  const edit = (patch: Partial<typeof draft>): void => dispatch({ type: 'form-edit', patch })
  const invalid = (field: DraftField): { 'aria-invalid'?: true; 'aria-describedby'?: string } =>
    issues[field] ? { 'aria-invalid': true, 'aria-describedby': `mcp-issue-${field}` } : {}

  return (
    <form
      className="provider-form mcp-form"
      data-testid="mcp-form"
      onSubmit={(event) => {
        event.preventDefault()
        applyServerForm()
      }}
    >
      <h3 className="provider-form__title">
        {form.editing === null ? 'Add an MCP server' : `Edit ${draft.name || 'server'}`}
      </h3>
      <div className="form-grid">
        <TextField
          label="Name"
          hint={`Its tools are named mcp__${draft.name || 'name'}__tool.`}
          error={issues.name}
          errorTestId="mcp-issue-name"
          mono
          testId="mcp-name"
          value={draft.name}
          onChange={(name) => edit({ name })}
          spellCheck={false}
        />

        <fieldset className="field mcp-form__kind">
          <legend className="field__label">Runs</legend>
          {kinds.map(({ kind, label }) => (
            <Check
              key={kind}
              className="check"
              radio="mcp-kind"
              testId={`mcp-kind-${kind}`}
              checked={draft.kind === kind}
              onChange={() => edit({ kind })}
            >
              {label}
            </Check>
          ))}
        </fieldset>

        {draft.kind === 'url' ? (
          <RemoteFields form={form} edit={edit} invalid={invalid} />
        ) : (
          <LocalFields form={form} edit={edit} invalid={invalid} />
        )}

        <fieldset className="field field--wide mcp-form__options">
          <legend className="field__label">Options</legend>
          <Check
            className="check"
            testId="mcp-prefix"
            checked={draft.prefixTools}
            onChange={(prefixTools) => edit({ prefixTools })}
          >
            Prefix tool names with <span className="mono">mcp__{draft.name || 'name'}__</span>
          </Check>
          {draft.kind === 'command' && (
            <Check
              className="check"
              testId="mcp-sandbox"
              checked={draft.sandbox}
              onChange={(sandbox) => edit({ sandbox })}
            >
              Run in a sandbox (refused where no sandbox is available, never run unconfined)
            </Check>
          )}
          <FieldError field="sandbox" message={issues.sandbox} />
          <Check
            className="check"
            testId="mcp-lazy"
            checked={draft.lazyTools}
            onChange={(lazyTools) => edit({ lazyTools })}
          >
            Load its tools only when the model searches for them (ToolSearch), for servers with many
            tools
          </Check>
        </fieldset>

        <fieldset className="field field--wide mcp-form__options">
          <legend className="field__label">
            Treat its tools as <span className="field__optional">only ever adds caution</span>
          </legend>
          <div className="mcp-form__force">
            {forces.map(({ key, testId, label }) => (
              <Check
                key={key}
                className="check"
                testId={testId}
                checked={draft[key]}
                onChange={(on) => edit({ [key]: on })}
              >
                {label}
              </Check>
            ))}
            <label className="check">
              Egress at least
              <select
                className="select select--compact"
                data-testid="mcp-force-egress"
                value={draft.forceEgress}
                onChange={(e) => edit({ forceEgress: e.target.value as Capabilities['egress'] })}
              >
                <option value="none">as the server says</option>
                <option value="blind">blind</option>
                <option value="chosen">chosen</option>
              </select>
            </label>
          </div>
          <span className="field__hint">
            MCP tools always count as seeing private data. Without hints from the server, a tool
            counts as untrusted, reaching the network, and destructive.
          </span>
          <FieldError field="force" message={issues.force} />
        </fieldset>
      </div>

      <div className="provider-form__test">
        <Button type="submit" tone="primary" data-testid="mcp-apply">
          {form.editing === null ? 'Add server' : 'Apply changes'}
        </Button>
        <Button tone="ghost" onClick={() => dispatch({ type: 'form-close' })}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
