import type { JSX } from 'react'
import type { McpServerView } from '../../../../shared/mcp'
import { stateLabel, type DetailTab } from './mcp-reducer'
import { Log, Prompts, Resources, Tools } from './mcp-server-offers'
import { restartServer, setTrust, showDetails, signIn, signOut, useMcp } from './mcp-store'
import { Button } from '../../ui/button'
import { Check } from '../../ui/check'

interface Props {
  name: string
  /** What the server is: the command line it runs, or the address of a remote one. */
  address: string
  view: McpServerView | undefined
  origin: 'user' | 'project'
  hasWorkspace: boolean
  enabled: boolean
  /** User servers: edit, remove and switch on or off. */
  onEdit?: () => void
  onRemove?: () => void
  onToggle?: (enabled: boolean) => void
  /** User servers: the tools switched off in the draft, and switching one. */
  disabledTools?: string[]
  onToggleTool?: (tool: string, enabled: boolean) => void
  editing?: boolean
}

const tone: Record<string, string> = {
  ready: 'green',
  starting: 'blue',
  restarting: 'amber',
  failed: 'red',
  untrusted: 'amber'
}

function signInLabel(oauth: NonNullable<McpServerView['oauth']>): string {
  if (oauth.state === 'signing-in') return 'Waiting for the browser…'
  if (oauth.state === 'signed-out') {
    return oauth.error ?? 'Not signed in: its tools appear once you sign in'
  }
  if (oauth.expiresAt === null) return 'Signed in'
  const time = new Date(oauth.expiresAt).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit'
  })
  return `Signed in · token renews before ${time}`
}

/** One server: what it runs, how it is doing, and (opened) its tools, resources, prompts and log. */
export function McpServerRow(props: Props): JSX.Element {
  const { name, address, view, origin, hasWorkspace, enabled } = props
  const expanded = useMcp((s) => (s.state.expanded === name ? s.state.tab : null))
  const busy = useMcp((s) => s.state.busy.includes(name))
  const state = view?.state ?? 'idle'
  const running = state === 'ready' || state === 'starting' || state === 'restarting'
  const tabs: { tab: DetailTab; label: string }[] = [
    { tab: 'tools', label: `Tools${view ? ` (${view.tools.length})` : ''}` },
    { tab: 'resources', label: `Resources${view ? ` (${view.resources.length})` : ''}` },
    { tab: 'prompts', label: `Prompts${view ? ` (${view.prompts.length})` : ''}` },
    { tab: 'log', label: 'Log' }
  ]

  return (
    <li
      className={`provider-row mcp-row${props.editing ? ' provider-row--editing' : ''}`}
      data-testid="mcp-server"
      data-name={name}
      data-state={view?.state ?? 'unsaved'}
    >
      <div className="mcp-row__top">
        <span className={`mcp-dot mcp-dot--${tone[state] ?? 'neutral'}`} aria-hidden="true" />
        <div className="provider-row__main">
          <div className="provider-row__title">
            <span className="mono">{name}</span>
            {origin === 'project' && (
              <span className="badge badge--blue" title="From this project's .mecatl/settings.yaml">
                Project
              </span>
            )}
            <span className="mcp-row__state" data-testid="mcp-state">
              {state === 'starting' || state === 'restarting' ? (
                <span className="spinner-dot spinner-dot--small" />
              ) : null}
              {stateLabel(view, hasWorkspace)}
            </span>
          </div>
          <div className="provider-row__meta">
            <span className="mono" title={address}>
              {address}
            </span>
            {view?.transport && view.transport !== 'stdio' && (
              <span className="badge" data-testid="mcp-transport-badge">
                {view.transport === 'http' ? 'Streamable HTTP' : 'SSE'}
              </span>
            )}
            {view?.oauth && (
              <span className="mcp-row__signin" data-testid="mcp-sign-in-state">
                {signInLabel(view.oauth)}
              </span>
            )}
          </div>
        </div>
        <div className="provider-row__actions">
          {props.onToggle && (
            <Check
              className="check check--compact"
              title="Start or stop this server"
              testId="mcp-enabled"
              checked={enabled}
              onChange={(on) => props.onToggle?.(on)}
            >
              Enabled
            </Check>
          )}
          {origin === 'project' && state === 'untrusted' && (
            <Button
              small
              data-testid="mcp-trust"
              disabled={busy}
              onClick={() => void setTrust([name], true)}
            >
              Trust
            </Button>
          )}
          {origin === 'project' && view && state !== 'untrusted' && state !== 'disabled' && (
            <Button small tone="ghost" onClick={() => void setTrust([name], false)}>
              Stop trusting
            </Button>
          )}
          {hasWorkspace && view?.oauth && view.oauth.state !== 'signed-in' && (
            <Button
              small
              tone="primary"
              data-testid="mcp-sign-in"
              disabled={busy}
              onClick={() => void signIn(name)}
            >
              {view.oauth.state === 'signing-in' ? 'Sign in again' : 'Sign in'}
            </Button>
          )}
          {hasWorkspace && view?.oauth?.state === 'signed-in' && (
            <Button
              small
              tone="ghost"
              data-testid="mcp-sign-out"
              disabled={busy}
              onClick={() => void signOut(name)}
            >
              Sign out
            </Button>
          )}
          {hasWorkspace && view && (running || state === 'failed') && (
            <Button
              small
              data-testid="mcp-restart"
              disabled={busy}
              onClick={() => void restartServer(name)}
            >
              {busy ? 'Restarting…' : 'Restart'}
            </Button>
          )}
          {props.onEdit && (
            <Button small onClick={props.onEdit} disabled={props.editing}>
              Edit
            </Button>
          )}
          {props.onRemove && (
            <Button
              small
              tone="ghost-danger"
              onClick={props.onRemove}
              aria-label={`Remove ${name}`}
            >
              Remove
            </Button>
          )}
        </div>
      </div>

      {/* Waiting for sign-in is no failure: the row says it beside the Sign in button. */}
      {view?.error && view.state !== 'needs-sign-in' && (
        <p className="mcp-row__error" role="alert" data-testid="mcp-error">
          {view.error}
        </p>
      )}

      {view && (
        <div className="mcp-tabs" role="tablist" aria-label={`${name} details`}>
          {tabs.map(({ tab, label }) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={expanded === tab}
              className={`mcp-tab${expanded === tab ? ' mcp-tab--active' : ''}`}
              data-testid={`mcp-tab-${tab}`}
              onClick={() => showDetails(name, tab)}
            >
              {label}
            </button>
          ))}
          {view.pid !== null && <span className="mcp-tabs__pid">pid {view.pid}</span>}
        </div>
      )}

      {view && expanded && (
        // Focusable, as the tabs pattern asks of a panel: it scrolls, and a keyboard must reach
        // the tools, resources or log lines below its fold.
        <div
          className="mcp-details"
          role="tabpanel"
          tabIndex={0}
          aria-label={`${name} ${expanded}`}
        >
          {expanded === 'tools' && (
            <Tools
              view={view}
              off={props.disabledTools ?? view.offTools.map((tool) => tool.name)}
              onToggle={props.onToggleTool}
            />
          )}
          {expanded === 'resources' && <Resources view={view} />}
          {expanded === 'prompts' && <Prompts view={view} />}
          {expanded === 'log' && <Log name={name} />}
        </div>
      )}
    </li>
  )
}
