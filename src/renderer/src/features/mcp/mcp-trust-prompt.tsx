import { useEffect, useMemo, useRef, type JSX } from 'react'
import { ShieldIcon } from '../../lib/icons'
import { Button } from '../../ui/button'
import { Dialog } from '../../ui/dialog'
import { FormError } from '../../ui/form-error'
import { ModalFooter, ModalHeader } from '../../ui/modal-parts'
import { useWorkspace } from '../sessions'
import { awaitingTrust, trustKey } from './mcp-reducer'
import { loadMcpStatus, setTrust, useMcp } from './mcp-store'
import './mcp.css'

/**
 * Asks once per project (and again whenever a definition changes) before the project's own MCP
 * servers run: a cloned repository must not run commands just by being opened.
 */
export function McpTrustPrompt(): JSX.Element | null {
  const workspace = useWorkspace()
  const state = useMcp((s) => s.state)
  const waiting = useMemo(() => awaitingTrust(state), [state])
  const busy = state.busy.length > 0
  const error = state.actionError
  const dispatch = useMcp((s) => s.dispatch)
  const box = useRef<HTMLDivElement>(null)

  // Opening the project also starts the person's own servers, so their tools are ready sooner.
  useEffect(() => {
    if (workspace) void loadMcpStatus(workspace)
  }, [workspace])

  if (waiting.length === 0) return null
  const notNow = (): void => dispatch({ type: 'dismiss-trust', keys: waiting.map(trustKey) })

  return (
    <Dialog
      className="modal-dialog mcp-trust-dialog"
      labelledBy="mcp-trust-title"
      data-testid="mcp-trust-prompt"
      onClose={notNow}
      initialFocus={box}
    >
      <div ref={box} className="modal approval" tabIndex={-1}>
        <ModalHeader
          icon={<ShieldIcon size={18} />}
          titleId="mcp-trust-title"
          title="Run this project’s MCP servers?"
          meta={
            <div className="approval__meta">
              Defined in <span className="mono">.mecatl/settings.yaml</span> of this folder
            </div>
          }
        />
        <div className="approval__body">
          <p className="approval__sentence">
            This project asks Mecatl to start or connect to{' '}
            {waiting.length === 1 ? 'an MCP server' : 'MCP servers'}. Only trust{' '}
            {waiting.length === 1 ? 'it' : 'them'} if you trust where this folder came from.
          </p>
          {waiting.map((server) => (
            <div key={server.name} className="approval__section" data-testid="mcp-trust-server">
              <div className="approval__label mcp-trust__name">{server.name}</div>
              <pre className="approval__code">
                {server.url ?? [server.command ?? '', ...server.args].join(' ')}
              </pre>
              {server.url && (
                <p className="field__hint">
                  A remote server: what its tools are given is sent to this address
                  {server.headerNames.length > 0 && (
                    <>
                      , with the headers{' '}
                      <span className="mono">{server.headerNames.join(', ')}</span> (secrets from
                      your environment or stored keys)
                    </>
                  )}
                  {server.auth === 'bearer' && ' and a bearer token from your environment or keys'}.
                </p>
              )}
              {server.envNames.length > 0 && (
                <p className="field__hint">
                  Environment: <span className="mono">{server.envNames.join(', ')}</span>
                </p>
              )}
              {server.sandbox && <p className="field__hint">Asks to run in a sandbox.</p>}
            </div>
          ))}
          <FormError error={error} />
        </div>
        <ModalFooter hint="Asked again if a definition changes">
          <Button data-testid="mcp-trust-later" onClick={notNow}>
            Not now
          </Button>
          <Button
            tone="primary"
            data-testid="mcp-trust-accept"
            disabled={busy}
            onClick={() =>
              void setTrust(
                waiting.map((server) => server.name),
                true
              )
            }
          >
            Trust and start
          </Button>
        </ModalFooter>
      </div>
    </Dialog>
  )
}
