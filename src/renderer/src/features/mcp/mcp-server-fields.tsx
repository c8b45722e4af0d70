import type { JSX } from 'react'
import type { DraftField, ServerDraft } from './mcp-model'
import type { ServerForm } from './mcp-reducer'

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

/** How a program this machine runs is started: its command, arguments and environment. */
export function LocalFields({ form, edit, invalid }: FieldsProps): JSX.Element {
  const { draft, issues } = form
  return (
    <>
      <label className="field">
        <span className="field__label">Command</span>
        <input
          className="input input--mono"
          data-testid="mcp-command"
          value={draft.command}
          placeholder="npx"
          onChange={(e) => edit({ command: e.target.value })}
          spellCheck={false}
          {...invalid('command')}
        />
        <span className="field__hint">The program to run; it starts in the project folder.</span>
        <FieldError field="command" message={issues.command} />
      </label>

      <label className="field field--wide">
        <span className="field__label">
          Arguments <span className="field__optional">one per line</span>
        </span>
        <textarea
          className="textarea input--mono"
          data-testid="mcp-args"
          rows={3}
          value={draft.args}
          placeholder={'-y\n@modelcontextprotocol/server-filesystem\n.'}
          onChange={(e) => edit({ args: e.target.value })}
          spellCheck={false}
          {...invalid('args')}
        />
        <FieldError field="args" message={issues.args} />
      </label>

      <label className="field">
        <span className="field__label">
          Environment <span className="field__optional">NAME=value, one per line</span>
        </span>
        <textarea
          className="textarea input--mono"
          data-testid="mcp-env"
          rows={3}
          value={draft.env}
          placeholder="LOG_LEVEL=info"
          onChange={(e) => edit({ env: e.target.value })}
          spellCheck={false}
          {...invalid('env')}
        />
        <span className="field__hint">Written into settings: never put keys here.</span>
        <FieldError field="env" message={issues.env} />
      </label>

      <label className="field">
        <span className="field__label">
          Pass through <span className="field__optional">variable names</span>
        </span>
        <textarea
          className="textarea input--mono"
          data-testid="mcp-passthrough"
          rows={3}
          value={draft.passthrough}
          placeholder="GITHUB_TOKEN"
          onChange={(e) => edit({ passthrough: e.target.value })}
          spellCheck={false}
          {...invalid('passthrough')}
        />
        <span className="field__hint">
          Copied from Mecatl’s environment. A server gets only PATH, HOME, LANG, LC_ALL, TZ, these,
          and the variables on the left.
        </span>
        <FieldError field="passthrough" message={issues.passthrough} />
      </label>
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
    field: 'scopes',
    testId: 'mcp-scopes',
    label: 'Scopes',
    placeholder: 'scopes, separated by spaces (optional)'
  }
] as const

/** How a remote server is reached: its address, transport, headers and credentials. */
export function RemoteFields({ form, edit, invalid }: FieldsProps): JSX.Element {
  const { draft, issues } = form
  return (
    <>
      <label className="field field--wide">
        <span className="field__label">Address</span>
        <input
          className="input input--mono"
          data-testid="mcp-url"
          value={draft.url}
          placeholder="https://mcp.example.com/mcp"
          onChange={(e) => edit({ url: e.target.value })}
          spellCheck={false}
          {...invalid('url')}
        />
        <span className="field__hint">
          https, or plain http to this machine only (localhost, 127.0.0.1).
        </span>
        <FieldError field="url" message={issues.url} />
      </label>

      <label className="field">
        <span className="field__label">Transport</span>
        <select
          className="select"
          data-testid="mcp-transport"
          value={draft.transport}
          onChange={(e) => edit({ transport: e.target.value as ServerDraft['transport'] })}
          {...invalid('transport')}
        >
          <option value="">Streamable HTTP, else the legacy SSE</option>
          <option value="http">Streamable HTTP only</option>
          <option value="sse">Legacy SSE only</option>
        </select>
        <FieldError field="transport" message={issues.transport} />
      </label>

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

      <label className="field field--wide">
        <span className="field__label">
          Headers <span className="field__optional">Name: value, one per line</span>
        </span>
        <textarea
          className="textarea input--mono"
          data-testid="mcp-headers"
          rows={3}
          value={draft.headers}
          placeholder={'X-Api-Key: ${secret:NOTION_KEY}\nX-Team: platform'}
          onChange={(e) => edit({ headers: e.target.value })}
          spellCheck={false}
          {...invalid('headers')}
        />
        <span className="field__hint">
          Secrets only by reference: <span className="mono">{'${env:NAME}'}</span> reads a variable
          of Mecatl’s environment, <span className="mono">{'${secret:NAME}'}</span> a key stored
          with <span className="mono">mecatl keys set NAME</span>. Values in clear are refused for
          credential headers.
        </span>
        <FieldError field="headers" message={issues.headers} />
      </label>
    </>
  )
}
