import { useMemo, useState, type JSX } from 'react'
import type { ResourceRequest } from '../../../../shared/attachments'
import { ExternalIcon } from '../../lib/icons'
import { PickerDialog } from './picker-dialog'
import { loadMcpStatus, useMcpError, useMcpStatus } from '../mcp'
import { resourceChoices, resourceRequest } from '../mention'
import { useWorkspace } from '../sessions'

interface Props {
  disabled?: boolean
  /** Told the resource picked; main reads it from its server when the message is sent. */
  onPick: (resource: ResourceRequest) => void
}

/**
 * The Attach resource button and its list: the resources of the project's MCP servers that are
 * ready, as their status reports them (read again each time the list opens). What is picked
 * becomes a chip; its content is untrusted, and the list says so.
 */
export function AttachResourceButton({ disabled, onPick }: Props): JSX.Element {
  const [open, setOpen] = useState(false)
  const workspace = useWorkspace()
  const status = useMcpStatus(workspace)
  const error = useMcpError()
  const choices = useMemo(() => resourceChoices(status), [status])

  const show = (): void => {
    setOpen(true)
    if (workspace) void loadMcpStatus(workspace)
  }

  return (
    <PickerDialog
      icon={<ExternalIcon />}
      label="Attach resource"
      buttonTestId="attach-resource-button"
      disabled={disabled === true || !workspace}
      title="Attach a resource of an MCP server"
      testId="resource-picker"
      open={open}
      onOpen={show}
      onClose={() => setOpen(false)}
    >
      <p className="file-picker__note">
        A resource comes from outside: the model is told it is untrusted content, and the session
        counts it as private data and untrusted input.
      </p>
      {error && (
        <p className="attachments__error file-picker__note" role="alert">
          {error}
        </p>
      )}
      {status === null && !error && <p className="file-picker__note">Listing the servers…</p>}
      {status !== null && choices.length === 0 && (
        <p className="file-picker__note" data-testid="resource-picker-empty">
          No MCP server that is ready offers resources. Add or start one in Settings → MCP.
        </p>
      )}
      {choices.length > 0 && (
        <ul className="file-picker__list">
          {choices.map((choice) => (
            <li key={`${choice.server}\u0000${choice.uri}`}>
              <button
                type="button"
                className="file-picker__entry"
                data-testid="resource-picker-entry"
                data-uri={choice.uri}
                title={choice.description ?? choice.uri}
                onClick={() => {
                  onPick(resourceRequest(choice))
                  setOpen(false)
                }}
              >
                <ExternalIcon size={14} />
                <span>
                  {choice.server}: {choice.name}
                </span>
                <span className="mono resource-picker__uri">{choice.uri}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </PickerDialog>
  )
}
