import type { JSX } from 'react'
import {
  formatBytes,
  imageBytes,
  resourceLabel,
  type Attachment
} from '../../../../shared/attachments'
import { CloseIcon, ExternalIcon, FileIcon } from '../../lib/icons'
import { imageUrl } from './attachments-model'
import './attachments.css'

interface Props {
  attachments: readonly Attachment[] | undefined
  /** Given in the message box: each chip gets a remove button. Absent on a sent message. */
  onRemove?: (index: number) => void
}

/**
 * Attachments as chips: an image as its thumbnail, name and size; a project file as its path; an
 * MCP resource as `server: name`. The same chips show in the box (removable) and on the sent
 * message.
 */
export function AttachmentChips({ attachments, onRemove }: Props): JSX.Element | null {
  if (!attachments || attachments.length === 0) return null
  return (
    <ul
      className={`attachment-chips${onRemove ? ' attachment-chips--box' : ''}`}
      data-testid={onRemove ? 'composer-attachments' : 'message-attachments'}
      aria-label="Attachments"
    >
      {attachments.map((attachment, index) => {
        const label = chipLabel(attachment)
        return (
          <li
            key={`${index}-${label}`}
            className="attachment-chip"
            data-testid="attachment-chip"
            data-kind={attachment.kind}
            title={attachment.kind === 'resource' ? resourceTitle(attachment) : label}
          >
            {attachment.kind === 'image' ? (
              <img className="attachment-chip__thumb" src={imageUrl(attachment)} alt={label} />
            ) : attachment.kind === 'resource' ? (
              <ExternalIcon size={14} className="attachment-chip__icon" />
            ) : (
              <FileIcon size={14} className="attachment-chip__icon" />
            )}
            <span className="attachment-chip__name mono">{label}</span>
            {attachment.kind === 'image' && (
              <span className="attachment-chip__size">{formatBytes(imageBytes(attachment))}</span>
            )}
            {onRemove && (
              <button
                type="button"
                className="attachment-chip__remove"
                data-testid="attachment-remove"
                aria-label={`Remove ${label}`}
                title="Remove"
                onClick={() => onRemove(index)}
              >
                <CloseIcon size={12} />
              </button>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function chipLabel(attachment: Attachment): string {
  if (attachment.kind === 'image') return attachment.name
  if (attachment.kind === 'file') return attachment.path
  return resourceLabel(attachment)
}

/** The hover text of a resource chip: its URI, what was left out, and that it is untrusted. */
function resourceTitle(resource: Extract<Attachment, { kind: 'resource' }>): string {
  const note = resource.note ? `\n${resource.note}` : ''
  return `${resource.uri} from the MCP server ${resource.server} (untrusted content)${note}`
}
