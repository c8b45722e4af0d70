import { useState, type JSX } from 'react'
import type { CallOutput } from '../../../../shared/contract'
import { call } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { ArrowLeftIcon, FileIcon, FolderIcon, PaperclipIcon } from '../../lib/icons'
import { PickerDialog } from './picker-dialog'

type Listing = CallOutput<'files.list'>

interface Props {
  sessionId: string | null
  disabled?: boolean
  /** Told the project-relative path of the file picked. */
  onPick: (path: string) => void
}

/**
 * The Attach file button and its picker: a browser over the session's project folder, listed by
 * main through the folder's jail (`files.list`), so only files inside the project can be picked
 * and they are named by their project-relative path.
 */
export function AttachFileButton({ sessionId, disabled, onPick }: Props): JSX.Element {
  const [listing, setListing] = useState<Listing | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [open, setOpen] = useState(false)

  const load = async (folder: string): Promise<void> => {
    if (!sessionId) return
    setError(null)
    try {
      setListing(await call('files.list', { sessionId, path: folder }))
    } catch (failure) {
      setError(errorMessage(failure))
    }
  }

  const show = (): void => {
    setOpen(true)
    void load(listing?.path ?? '')
  }
  const up = listing && listing.path !== '' ? listing.path.split('/').slice(0, -1).join('/') : null
  const join = (name: string): string => (listing?.path ? `${listing.path}/${name}` : name)

  return (
    <PickerDialog
      icon={<PaperclipIcon />}
      label="Attach file"
      buttonTestId="attach-file-button"
      disabled={disabled === true || !sessionId}
      title="Attach a file from the project"
      testId="file-picker"
      open={open}
      onOpen={show}
      onClose={() => setOpen(false)}
    >
      <div className="file-picker__path mono" data-testid="file-picker-path">
        {listing ? `/${listing.path}` : '…'}
      </div>
      {error && (
        <p className="attachments__error file-picker__note" role="alert">
          {error}
        </p>
      )}
      {listing && (
        <ul className="file-picker__list">
          {up !== null && (
            <li>
              <button type="button" className="file-picker__entry" onClick={() => void load(up)}>
                <ArrowLeftIcon size={14} /> ..
              </button>
            </li>
          )}
          {listing.entries.map((entry) => (
            <li key={entry.name}>
              <button
                type="button"
                className="file-picker__entry mono"
                data-testid="file-picker-entry"
                data-kind={entry.kind}
                onClick={() => {
                  if (entry.kind === 'folder') {
                    void load(join(entry.name))
                    return
                  }
                  onPick(join(entry.name))
                  setOpen(false)
                }}
              >
                {entry.kind === 'folder' ? <FolderIcon size={14} /> : <FileIcon size={14} />}
                {entry.name}
                {entry.kind === 'folder' ? '/' : ''}
              </button>
            </li>
          ))}
          {listing.entries.length === 0 && <li className="file-picker__note">(empty folder)</li>}
        </ul>
      )}
      {listing && listing.more > 0 && (
        <p className="file-picker__note">
          {listing.more} more entries are not listed; name the file in the message instead.
        </p>
      )}
    </PickerDialog>
  )
}
