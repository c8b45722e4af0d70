import type { JSX, ReactNode } from 'react'
import { Field } from '../../ui/field'
import type { DraftField, ServerDraft } from './mcp-model'
import type { ServerForm } from './mcp-reducer'

/** The problem found with a group of settings (a fieldset), which no single control owns. */
export function FieldError({
  field,
  message
}: {
  field: DraftField
  message?: string
}): JSX.Element | null {
  if (!message) return null
  return (
    <p className="field-error" id={`mcp-issue-${field}`} data-testid={`mcp-issue-${field}`}>
      {message}
    </p>
  )
}

interface FieldsProps {
  form: ServerForm
  edit: (patch: Partial<ServerDraft>) => void
  invalid: (field: DraftField) => { 'aria-invalid'?: true; 'aria-describedby'?: string }
}

type TextKey = 'command' | 'args' | 'env' | 'passthrough' | 'url' | 'headers'

interface DraftTextProps extends FieldsProps {
  field: TextKey
  label: string
  /** A word on the format, after the label ("one per line"). */
  format?: string
  hint?: ReactNode
  placeholder: string
  /** A text area of this many rows; none: one line. */
  rows?: number
  wide?: boolean
}

/** One text setting of the draft: its label, input, hint, and the problem found with it. */
function DraftText(props: DraftTextProps): JSX.Element {
  const { form, edit, field, rows } = props
  return (
    <Field
      className={props.wide ? 'field--wide' : undefined}
      label={props.label}
      optional={props.format}
      hint={props.hint}
      error={form.issues[field]}
      errorTestId={`mcp-issue-${field}`}
    >
      {(control) => {
        const common = {
          ...control,
          'data-testid': `mcp-${field}`,
          value: form.draft[field],
          placeholder: props.placeholder,
          spellCheck: false
        }
        return rows ? (
          <textarea
            className="textarea input--mono"
            rows={rows}
            onChange={(e) => edit({ [field]: e.target.value })}
            {...common}
          />
        ) : (
          <input
            className="input input--mono"
            onChange={(e) => edit({ [field]: e.target.value })}
            {...common}
          />
        )
      }}
    </Field>
  )
}

/** How a program this machine runs is started: its command, arguments and environment. */
export function LocalFields(props: FieldsProps): JSX.Element {
  return (
    <>
      <DraftText
        {...props}
        field="command"
        label="Command"
        placeholder="npx"
        hint="The program to run; it starts in the project folder."
      />
      <DraftText
        {...props}
        field="args"
        label="Arguments"
        format="one per line"
        rows={3}
        wide
        placeholder={'-y\n@modelcontextprotocol/server-filesystem\n.'}
      />
      <DraftText
        {...props}
        field="env"
        label="Environment"
        format="NAME=value, one per line"
        rows={3}
        placeholder="LOG_LEVEL=info"
        hint="Written into settings: never put keys here."
      />
      <DraftText
        {...props}
        field="passthrough"
        label="Pass through"
        format="variable names"
        rows={3}
        placeholder="GITHUB_TOKEN"
        hint="Copied from Mecatl’s environment. A server gets only PATH, HOME, LANG, LC_ALL, TZ, these, and the variables on the left."
      />
    </>
  )
}

/** The optional client details of `auth: oauth`, in the order the form shows them. */
const OAUTH_FIELDS = [
  {
    field: 'clientId',
    testId: 'mcp-client-id',
    label: 'Client id',
    placeholder: "client id the server's owner registered (optional)"
  },
  {
    field: 'clientSecret',
    testId: 'mcp-client-secret',
    label: 'Client secret reference',
    placeholder: '${secret:NAME} for its secret (optional)'
  },
  {
    field: 'clientMetadataUrl',
    testId: 'mcp-client-metadata-url',
    label: 'Client metadata document',
    placeholder: 'https address of a client ID metadata document (optional)'
  },
  {
    field: 'scopes',
    testId: 'mcp-scopes',
    label: 'Scopes',
    placeholder: 'scopes, separated by spaces (optional)'
  }
] as const

/** How a remote server is reached: its address, transport, headers and credentials. */
export function RemoteFields(props: FieldsProps): JSX.Element {
  const { form, edit, invalid } = props
  const { draft, issues } = form
  return (
    <>
      <DraftText
        {...props}
        field="url"
        label="Address"
        wide
        placeholder="https://mcp.example.com/mcp"
        hint="https, or plain http to this machine only (localhost, 127.0.0.1)."
      />

      <Field label="Transport" error={issues.transport} errorTestId="mcp-issue-transport">
        {(control) => (
          <select
            {...control}
            className="select"
            data-testid="mcp-transport"
            value={draft.transport}
            onChange={(e) => edit({ transport: e.target.value as ServerDraft['transport'] })}
          >
            <option value="">Streamable HTTP, else the legacy SSE</option>
            <option value="http">Streamable HTTP only</option>
            <option value="sse">Legacy SSE only</option>
          </select>
        )}
      </Field>

      <label className="field">
        <span className="field__label">Authorization</span>
        <select
          className="select"
          data-testid="mcp-auth"
          value={draft.auth}
          onChange={(e) => edit({ auth: e.target.value as ServerDraft['auth'] })}
        >
          <option value="auto">Sign in (OAuth) if the server asks</option>
          <option value="oauth">Sign in (OAuth), with these client details</option>
          <option value="bearer">Bearer token from a variable or a stored key</option>
          <option value="none">None</option>
        </select>
        {draft.auth === 'oauth' &&
          OAUTH_FIELDS.map(({ field, testId, label, placeholder }) => (
            <input
              key={field}
              className="input input--mono"
              data-testid={testId}
              aria-label={label}
              value={draft[field]}
              placeholder={placeholder}
              onChange={(e) => edit({ [field]: e.target.value })}
              spellCheck={false}
            />
          ))}
        {draft.auth === 'bearer' && (
          <input
            className="input input--mono"
            data-testid="mcp-token"
            aria-label="Bearer token reference"
            value={draft.token}
            placeholder="${env:LINEAR_TOKEN}"
            onChange={(e) => edit({ token: e.target.value })}
            spellCheck={false}
            {...invalid('auth')}
          />
        )}
        <FieldError field="auth" message={issues.auth} />
      </label>

      <DraftText
        {...props}
        field="headers"
        label="Headers"
        format="Name: value, one per line"
        rows={3}
        wide
        placeholder={'X-Api-Key: ${secret:NOTION_KEY}\nX-Team: platform'}
        hint={
          <>
            Secrets only by reference: <span className="mono">{'${env:NAME}'}</span> reads a
            variable of Mecatl’s environment, <span className="mono">{'${secret:NAME}'}</span> a key
            stored with <span className="mono">mecatl keys set NAME</span>. Values in clear are
            refused for credential headers.
          </>
        }
      />
    </>
  )
}
