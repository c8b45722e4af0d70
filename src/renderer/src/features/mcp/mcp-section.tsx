import { useEffect, useMemo, type JSX } from 'react'
import { PlusIcon } from '../../lib/icons'
import { useWorkspace } from '../sessions'
import { mcpEntriesOf, useSettingsView } from '../settings'
import { removeServer, setEnabled, setToolEnabled } from './mcp-draft'
import { McpImport } from './mcp-import'
import { draftFromSettings, emptyDraft, serverName, serversOf } from './mcp-model'
import { McpServerForm } from './mcp-server-form'
import { McpServerRow } from './mcp-server-row'
import { loadMcpStatus, useMcp } from './mcp-store'
import { Button } from '../../ui/button'
import { FormError } from '../../ui/form-error'
import { SettingsSection } from '../../ui/settings-section'
import './mcp.css'

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** The settings screen's MCP servers: the person's own, this project's, and what each offers. */
export function McpSection(): JSX.Element {
  const workspace = useWorkspace()
  const entries = useSettingsView((s) => mcpEntriesOf(s.draft))
  const settingsReady = useSettingsView((s) => s.status === 'ready')
  const state = useMcp((s) => s.state)
  const dispatch = useMcp((s) => s.dispatch)
  const mine = useMemo(() => serversOf(entries), [entries])

  useEffect(() => {
    void loadMcpStatus(workspace)
  }, [workspace])

  const views = state.status?.servers ?? []
  const projectServers = views.filter((v) => v.origin === 'project')
  const openForm = (index: number | null): void => {
    const server = index === null ? null : mine[index]
    dispatch({
      type: 'form-open',
      editing: index,
      draft: server ? draftFromSettings(server) : emptyDraft(mine.map(serverName))
    })
  }

  return (
    <SettingsSection
      name="mcp"
      title="MCP servers"
      testId="mcp-section"
      intro="Programs that give the model more tools. Each runs in the project folder with only the environment you allow; changes apply once saved."
      aside={
        <div className="mcp-section__actions">
          <Button
            data-testid="mcp-import-button"
            onClick={() => dispatch({ type: 'import-toggle', open: !state.importer.open })}
          >
            Import…
          </Button>
          {!state.form.open && (
            <Button
              data-testid="mcp-add-button"
              disabled={!settingsReady}
              onClick={() => openForm(null)}
            >
              <PlusIcon /> Add server
            </Button>
          )}
        </div>
      }
    >
      {!workspace && (
        <p className="field__hint">
          Servers start in a project folder: open one to see them run, with their tools and logs.
        </p>
      )}
      {state.error && (
        <div className="notice notice--error" role="alert">
          The servers’ state could not be read: {state.error}
          <button
            type="button"
            className="link-button"
            onClick={() => void loadMcpStatus(workspace)}
          >
            Try again
          </button>
        </div>
      )}
      <FormError error={state.actionError} />
      {(state.status?.issues.length ?? 0) > 0 && (
        <div className="notice notice--warn" role="alert" data-testid="mcp-project-issues">
          <div className="notice__title">This project’s MCP settings have problems</div>
          <ul className="issue-list">
            {state.status?.issues.map((issue, i) => (
              <li key={i}>
                <span className="mono">{issue.path}</span>: {issue.message}
              </li>
            ))}
          </ul>
        </div>
      )}

      {state.importer.open && <McpImport importer={state.importer} />}

      {mine.length === 0 && projectServers.length === 0 && !state.form.open && (
        <p className="muted">No MCP server yet.</p>
      )}
      {(mine.length > 0 || projectServers.length > 0) && (
        <ul className="provider-list mcp-list">
          {mine.map((server, index) => {
            const name = serverName(server)
            return (
              <McpServerRow
                key={`user:${index}:${name}`}
                name={name}
                address={
                  typeof server.url === 'string'
                    ? server.url
                    : [String(server.command ?? ''), ...strings(server.args)].join(' ')
                }
                view={views.find((v) => v.name === name && v.origin === 'user')}
                origin="user"
                hasWorkspace={workspace !== null}
                enabled={server.enabled !== false}
                editing={state.form.editing === index}
                onEdit={() => openForm(index)}
                onRemove={() => removeServer(index)}
                onToggle={(enabled) => setEnabled(index, enabled)}
                disabledTools={strings(server.disabled_tools)}
                onToggleTool={(tool, enabled) => setToolEnabled(index, tool, enabled)}
              />
            )
          })}
          {projectServers.map((view) => (
            <McpServerRow
              key={`project:${view.name}`}
              name={view.name}
              address={view.url ?? [view.command ?? '', ...view.args].join(' ')}
              view={view}
              origin="project"
              hasWorkspace
              enabled={view.enabled}
            />
          ))}
        </ul>
      )}
      {state.status?.projectFile && (
        <p className="field__hint">
          Project servers come from <span className="mono">{state.status.projectFile}</span>; edit
          that file to change them.
        </p>
      )}
      {state.form.open && <McpServerForm form={state.form} />}
    </SettingsSection>
  )
}
