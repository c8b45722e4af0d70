import { useEffect, useRef, type JSX, type ReactNode } from 'react'
import type { McpServerView } from '../../../../shared/mcp'
import { promptCommand } from '../../../../shared/mcp'
import { capabilityBadges } from '../approvals'
import { stateLabel, type DetailTab } from './mcp-reducer'
import { loadLog, restartServer, setTrust, showDetails, signIn, signOut, useMcp } from './mcp-store'
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

interface ToolsProps {
  view: McpServerView
  /** The tools switched off (their names at the server), as the settings draft has them. */
  off: readonly string[]
  /** User servers: switches a tool on or off in the draft; none, no switches (a project's). */
  onToggle?: (tool: string, enabled: boolean) => void
}

function Tools({ view, off, onToggle }: ToolsProps): JSX.Element {
  if (view.tools.length === 0 && view.offTools.length === 0) {
    return <p className="muted mcp-empty">No tools.</p>
  }
  const toggle = (own: string, label: string): JSX.Element | null =>
    onToggle ? (
      <Check
        className="check check--compact mcp-item__switch"
        testId="mcp-tool-enabled"
        aria-label={`Offer ${label} to the model`}
        checked={!off.includes(own)}
        onChange={(on) => onToggle(own, on)}
      >
        On
      </Check>
    ) : null
  return (
    <ul className="mcp-items" data-testid="mcp-tools">
      {view.tools.map((tool) => (
        <Item
          key={tool.name}
          testId="mcp-tool"
          tool={tool.name}
          name={tool.name}
          description={tool.description}
          head={
            <>
              <span className="mcp-item__badges">
                {capabilityBadges(tool.readOnly, tool.capabilities).map((badge) => (
                  <span
                    key={badge.label}
                    className={`badge badge--cap-${badge.tone}`}
                    title={badge.title}
                  >
                    {badge.label}
                  </span>
                ))}
              </span>
              {toggle(view.toolNames[tool.name] ?? tool.name, tool.name)}
            </>
          }
        />
      ))}
      {view.offTools.map((tool) => (
        <Item
          key={`off:${tool.name}`}
          off
          testId="mcp-tool-off"
          tool={tool.name}
          name={tool.name}
          description={tool.description}
          head={
            <>
              <span className="mcp-item__badges">
                <span className="badge">Off: not offered to the model</span>
              </span>
              {toggle(tool.name, tool.name)}
            </>
          }
        />
      ))}
    </ul>
  )
}

function Resources({ view }: { view: McpServerView }): JSX.Element {
  if (view.resources.length === 0) return <p className="muted mcp-empty">No resources.</p>
  return (
    <ul className="mcp-items" data-testid="mcp-resources">
      {view.resources.map((resource) => (
        <Item
          key={resource.uri}
          name={resource.name}
          mono={false}
          description={resource.description}
          head={
            resource.mimeType && <span className="badge badge--neutral">{resource.mimeType}</span>
          }
        >
          <p className="mcp-item__text mono">{resource.uri}</p>
        </Item>
      ))}
    </ul>
  )
}

function Prompts({ view }: { view: McpServerView }): JSX.Element {
  if (view.prompts.length === 0) return <p className="muted mcp-empty">No prompts.</p>
  return (
    <ul className="mcp-items" data-testid="mcp-prompts">
      {view.prompts.map((prompt) => (
        <Item
          key={prompt.name}
          name={promptCommand(view.name, prompt.name)}
          description={prompt.description}
          head={prompt.arguments.map((arg) => (
            <span key={arg.name} className="badge badge--neutral" title={arg.description ?? ''}>
              {arg.name}
              {arg.required ? '' : '?'}
            </span>
          ))}
        />
      ))}
    </ul>
  )
}

/**
 * One thing a server offers (a tool, a resource, a prompt): its name and what follows it on the
 * head line, then what it says of itself.
 */
function Item(props: {
  name: string
  /** The name set as code, as tool and prompt names are; a resource's is a title. */
  mono?: boolean
  /** A tool switched off in the settings. */
  off?: boolean
  testId?: string
  /** A tool's name at the server, for the tests to find it by. */
  tool?: string
  head: ReactNode
  description?: string | null
  children?: ReactNode
}): JSX.Element {
  return (
    <li
      className={props.off ? 'mcp-item mcp-item--off' : 'mcp-item'}
      data-testid={props.testId}
      data-tool={props.tool}
    >
      <div className="mcp-item__head">
        <span className={props.mono === false ? 'mcp-item__name' : 'mono mcp-item__name'}>
          {props.name}
        </span>
        {props.head}
      </div>
      {props.children}
      {props.description && <p className="mcp-item__text">{props.description}</p>}
    </li>
  )
}

function Log({ name }: { name: string }): JSX.Element {
  const lines = useMcp((s) => s.state.logs[name])
  const pane = useRef<HTMLPreElement>(null)
  // Follow the end, as a terminal does.
  useEffect(() => {
    const el = pane.current
    if (el) el.scrollTop = el.scrollHeight
  }, [lines])
  return (
    <div className="mcp-log">
      <pre ref={pane} className="mcp-log__pane" data-testid="mcp-log" tabIndex={0}>
        {(lines ?? []).length === 0 && <span className="muted">Nothing logged yet.</span>}
        {(lines ?? []).map((line, i) => (
          <div key={i} className={`mcp-log__line mcp-log__line--${line.stream}`}>
            <span className="mcp-log__time">{new Date(line.at).toLocaleTimeString()}</span>
            <span className="mcp-log__tag">[{name}]</span> {line.text}
          </div>
        ))}
      </pre>
      <button type="button" className="link-button" onClick={() => void loadLog(name)}>
        Refresh
      </button>
    </div>
  )
}

/** Where a remote server's sign-in stands, with when its token runs out. */
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
