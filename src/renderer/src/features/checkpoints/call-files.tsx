import { useState, type JSX, type ReactNode } from 'react'
import type { CallFiles, CheckpointFile, FileChange } from '../../../../shared/checkpoints'
import type { ToolCallView } from '../../../../shared/domain'
import { call as callCore } from '../../bridge/client'
import { errorMessage } from '../../lib/errors'
import { ChevronIcon, RewindIcon } from '../../lib/icons'
import { DiffView } from '../../ui/diff-view'
import { describeChanges } from './change-words'
import { openRestore } from './restore-store'
import './checkpoints.css'

type Taken = Extract<CallFiles, { before: string }>

const changeLabels: Record<FileChange['change'], string> = {
  created: 'created',
  changed: 'changed',
  deleted: 'deleted'
}

function Chevron({ open }: { open: boolean }): JSX.Element {
  return (
    <ChevronIcon
      size={12}
      className={`tool-card__chevron${open ? ' tool-card__chevron--open' : ''}`}
    />
  )
}

/** A button that shows or hides what is under it, its chevron turned to say which. */
function Unfold(props: {
  className: string
  testId: string
  open: boolean
  onClick: () => void
  children: ReactNode
}): JSX.Element {
  return (
    <button
      type="button"
      className={props.className}
      aria-expanded={props.open}
      data-testid={props.testId}
      onClick={props.onClick}
    >
      <Chevron open={props.open} />
      {props.children}
    </button>
  )
}

/** One file of a card's list: its diff between the checkpoints before and after, on demand. */
function FileRow({
  sessionId,
  files,
  change
}: {
  sessionId: string
  files: Taken
  change: FileChange
}): JSX.Element {
  const [open, setOpen] = useState(false)
  const [file, setFile] = useState<CheckpointFile | null>(null)
  const [error, setError] = useState<string | null>(null)
  const toggle = (): void => {
    setOpen((v) => !v)
    if (file || open) return
    callCore('checkpoints.file', {
      sessionId,
      before: files.before,
      after: files.after,
      path: change.path
    }).then(setFile, (e: unknown) => setError(errorMessage(e)))
  }
  return (
    <li className="call-files__file">
      <Unfold
        className="call-files__file-head"
        testId="call-files-file"
        open={open}
        onClick={toggle}
      >
        <span className="mono call-files__path">{change.path}</span>
        <span className={`call-files__change call-files__change--${change.change}`}>
          {changeLabels[change.change]}
        </span>
      </Unfold>
      {open && error && <p className="field-error">{error}</p>}
      {open && file?.shown === 'text' && (
        <DiffView
          display={{
            kind: 'diff',
            path: file.path,
            before: file.before,
            after: file.after ?? ''
          }}
        />
      )}
      {open && file && file.shown !== 'text' && (
        <p className="muted call-files__note">
          {file.shown === 'binary' ? 'A binary file: not shown.' : 'Too large to show here.'} See it
          with <span className="mono">mecatl checkpoints diff {files.before.slice(0, 12)}</span>.
        </p>
      )}
    </li>
  )
}

function Checkpointed({
  sessionId,
  call,
  files
}: {
  sessionId: string
  call: ToolCallView
  files: Taken
}): JSX.Element | null {
  const [open, setOpen] = useState(false)
  if (files.changes.length === 0 && files.more === 0) return null
  const paths = files.changes.map((c) => c.path)
  return (
    <div className="call-files" data-testid="call-files" data-during={files.during}>
      <div className="call-files__head">
        <Unfold
          className="call-files__summary"
          testId="call-files-summary"
          open={open}
          onClick={() => setOpen((v) => !v)}
        >
          {files.during === 'job' ? 'While its job ran: ' : ''}
          {describeChanges(files.changes, files.more)}
        </Unfold>
        <button
          type="button"
          className="call-files__revert"
          data-testid="call-files-revert"
          title="Put these files back as they were before this call"
          onClick={() =>
            void openRestore({
              kind: 'revert',
              sessionId,
              checkpoint: files.before,
              files: paths,
              tool: call.name
            })
          }
        >
          <RewindIcon size={12} /> Revert this change
        </button>
      </div>
      {open && (
        <ul className="call-files__list">
          {files.changes.map((change) => (
            <FileRow key={change.path} sessionId={sessionId} files={files} change={change} />
          ))}
          {files.more > 0 && (
            <li className="muted call-files__note">
              and {files.more.toLocaleString('en-US')} more (
              <span className="mono">mecatl checkpoints diff {files.before.slice(0, 12)}</span>)
            </li>
          )}
        </ul>
      )}
      {files.notCovered && files.notCovered.length > 0 && (
        <p className="muted call-files__note" data-testid="call-files-not-covered">
          Not covered by checkpoints:{' '}
          {files.notCovered.map((item) => `${item.path} (${item.why})`).join(', ')}
        </p>
      )}
    </div>
  )
}

/**
 * What a changing call did to the project's files, from the checkpoints around it: "changed 3
 * files, created 1", each with its diff, and Revert this change; or why it was not checkpointed.
 */
export function CallFilesView({
  sessionId,
  call
}: {
  sessionId: string | null
  call: ToolCallView
}): JSX.Element | null {
  if (!call.files || call.files.length === 0) return null
  return (
    <>
      {call.files.map((files) =>
        'failed' in files ? (
          <p
            key={files.during}
            className="call-files call-files--failed"
            data-testid="call-files-failed"
          >
            Not checkpointed: {files.failed}
          </p>
        ) : sessionId ? (
          <Checkpointed key={files.during} sessionId={sessionId} call={call} files={files} />
        ) : null
      )}
    </>
  )
}
