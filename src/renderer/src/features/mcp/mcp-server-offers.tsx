// What a server offers, in its row's details: its tools (each with a switch), resources, prompts
// and its log.
import { useEffect, useRef, type JSX, type ReactNode } from 'react'
import type { McpServerView } from '../../../../shared/mcp'
import { promptCommand } from '../../../../shared/mcp'
import { capabilityBadges } from '../approvals'
import { loadLog, useMcp } from './mcp-store'
import { Check } from '../../ui/check'

interface ToolsProps {
  view: McpServerView
  /** The tools switched off (their names at the server), as the settings draft has them. */
  off: readonly string[]
  /** User servers: switches a tool on or off in the draft; none, no switches (a project's). */
  onToggle?: (tool: string, enabled: boolean) => void
}

export function Tools({ view, off, onToggle }: ToolsProps): JSX.Element {
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

export function Resources({ view }: { view: McpServerView }): JSX.Element {
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

export function Prompts({ view }: { view: McpServerView }): JSX.Element {
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

export function Log({ name }: { name: string }): JSX.Element {
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
