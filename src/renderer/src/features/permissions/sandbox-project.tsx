import { useId, useState, type FormEvent, type JSX } from 'react'
import { PlusIcon, TrashIcon } from '../../lib/icons'
import {
  pathProblem,
  projectPaths,
  withoutProjectPath,
  withProjectPath,
  type ProjectAccess,
  type RawSandbox
} from './sandbox-model'

const accessLabel: Record<ProjectAccess, string> = {
  readable: 'read-only',
  writable: 'read-write'
}

/**
 * "For this project only": paths a command may read or write when it runs in this project
 * folder, kept under `sandbox.projects[<folder>]`; other projects never get them.
 */
export function SandboxProjectPaths({
  workspace,
  sandbox,
  onSandbox
}: {
  workspace: string | null
  sandbox: RawSandbox
  onSandbox: (next: RawSandbox) => void
}): JSX.Element {
  const [text, setText] = useState('')
  const [access, setAccess] = useState<ProjectAccess>('readable')
  const [problem, setProblem] = useState<string | null>(null)
  const id = useId()

  if (!workspace) {
    return (
      <div className="sandbox-settings__group" data-testid="sandbox-project">
        <h4 className="sandbox-settings__subtitle">For this project only</h4>
        <p className="field__hint">
          Open a project folder to add paths that only its commands may read or write.
        </p>
      </div>
    )
  }

  const paths = projectPaths(sandbox, workspace)
  const rows = (['readable', 'writable'] as const).flatMap((kind) =>
    paths[kind].map((entry) => ({ kind, entry }))
  )
  const add = (event: FormEvent): void => {
    event.preventDefault()
    const why = pathProblem(text)
    setProblem(why)
    if (why !== null) return
    onSandbox(withProjectPath(sandbox, workspace, access, text))
    setText('')
  }

  return (
    <div className="sandbox-settings__group" data-testid="sandbox-project">
      <h4 className="sandbox-settings__subtitle">For this project only</h4>
      <p className="field__hint">
        Paths commands may also use when they run in{' '}
        <span className="mono sandbox-settings__folder">{workspace}</span>; other projects do not
        get them.
      </p>
      {rows.length > 0 ? (
        <ul className="rule-list" data-testid="sandbox-project-paths">
          {rows.map(({ kind, entry }) => (
            <li key={`${kind}:${entry}`} className="rule-row" data-testid="sandbox-project-path">
              <span
                className={`badge ${kind === 'writable' ? 'badge--amber' : 'badge--neutral'} sandbox-project__access`}
              >
                {accessLabel[kind]}
              </span>
              <span className="rule-row__what mono">{entry}</span>
              <button
                type="button"
                className="button button--ghost button--small"
                aria-label={`Remove ${entry} (${accessLabel[kind]})`}
                onClick={() => onSandbox(withoutProjectPath(sandbox, workspace, kind, entry))}
              >
                <TrashIcon /> Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="rule-group__empty">None yet: this project gets what every project gets.</p>
      )}
      <form className="sandbox-project__add" onSubmit={add} data-testid="sandbox-project-add">
        <label className="field sandbox-project__path">
          <span className="field__label">Path</span>
          <input
            className="input input--mono"
            data-testid="sandbox-project-input"
            value={text}
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            aria-invalid={problem !== null ? true : undefined}
            onChange={(e) => {
              setText(e.target.value)
              setProblem(null)
            }}
          />
        </label>
        <label className="field">
          <span className="field__label">As</span>
          <select
            className="select"
            data-testid="sandbox-project-access"
            value={access}
            onChange={(e) => setAccess(e.target.value as ProjectAccess)}
          >
            <option value="readable">Read-only</option>
            <option value="writable">Read-write</option>
          </select>
        </label>
        <button type="submit" className="button" data-testid="sandbox-project-add-button">
          <PlusIcon /> Add
        </button>
      </form>
      {problem ? (
        <p className="field-error" id={`${id}-hint`} role="alert">
          {problem}
        </p>
      ) : (
        <p className="field__hint" id={`${id}-hint`}>
          A folder or file, from / or from ~/ (your home folder). Kept once you save.
        </p>
      )}
    </div>
  )
}
