import type { JSX, ReactNode } from 'react'
import { Field } from '../../ui/field'
import { useWorkspace } from '../sessions'
import { useSandboxStatus } from './use-sandbox-status'
import { useSandboxDraft } from './use-sandbox-draft'
import { useSandboxView } from './use-sandbox-view'
import {
  choice,
  homeDefaultsOn,
  linesOf,
  withChoice,
  withHomeDefaults,
  withLines
} from './sandbox-model'
import { SandboxSight } from './sandbox-sight'
import { SandboxProjectPaths } from './sandbox-project'
import { SandboxVariables } from './sandbox-variables'
import { SandboxListField } from './sandbox-list-field'
import './sandbox.css'

interface ListSpec {
  key: string
  label: string
  hint: ReactNode
}

const everyProject: ListSpec[] = [
  {
    key: 'readable',
    label: 'Also readable',
    hint: 'Read-only, anywhere, your home folder too. One path a line.'
  },
  { key: 'writable', label: 'Also writable', hint: 'Read-write, beside the project folder.' },
  {
    key: 'deny_read',
    label: 'Never readable',
    hint: 'Not even inside the project or a path listed here.'
  }
]

const connections: ListSpec[] = [
  {
    key: 'sockets',
    label: 'Unix sockets',
    hint: (
      <>
        One a line: a path, or <span className="mono">$NAME</span> for the path a variable holds.{' '}
        <span className="mono">$SSH_AUTH_SOCK</span> to let git push over ssh.
      </>
    )
  },
  {
    key: 'allowed_hosts',
    label: 'Allowed hosts',
    hint: 'With Network set to Allowlist: one host a line, such as registry.npmjs.org.'
  }
]

/**
 * Settings → Permissions → Sandbox: where Shell's commands run, what they can see there (as the
 * settings in force have it, for this window's project folder), and the lists that change it.
 */
export function SandboxSettings(): JSX.Element {
  const workspace = useWorkspace()
  const status = useSandboxStatus()
  const answer = useSandboxView(workspace)
  const draft = useSandboxDraft()
  const { sandbox, setSandbox } = draft
  const view = answer && 'view' in answer ? answer.view : null
  const list = (spec: ListSpec): JSX.Element => (
    <SandboxListField
      key={spec.key}
      label={spec.label}
      hint={spec.hint}
      testId={`sandbox-${spec.key}`}
      value={linesOf(sandbox, spec.key)}
      onChange={(text) => setSandbox(withLines(sandbox, spec.key, text))}
    />
  )

  return (
    <div className="sandbox-settings" data-testid="sandbox-settings">
      <h3 className="sandbox-settings__title">Sandbox</h3>
      {status && (
        <p
          className={`sandbox-status sandbox-status--${status.state}`}
          data-testid="sandbox-status"
          role={status.state === 'refused' ? 'alert' : undefined}
        >
          Shell: {status.text}
        </p>
      )}
      <div className="sandbox-settings__row">
        <Field label="Backend">
          {(control) => (
            <select
              {...control}
              className="select select--compact"
              data-testid="sandbox-kind"
              value={choice(sandbox, 'kind')}
              onChange={(e) => setSandbox(withChoice(sandbox, 'kind', e.target.value))}
            >
              <option value="">This system’s (default)</option>
              <option value="bwrap">bubblewrap</option>
              <option value="seatbelt">sandbox-exec (macOS)</option>
              <option value="none">No sandbox: commands run as you</option>
            </select>
          )}
        </Field>
        <Field label="Network">
          {(control) => (
            <select
              {...control}
              className="select select--compact"
              data-testid="sandbox-network"
              value={choice(sandbox, 'network') || 'off'}
              onChange={(e) => setSandbox(withChoice(sandbox, 'network', e.target.value))}
            >
              <option value="off">Off</option>
              <option value="allowlist">Allowlist</option>
              <option value="on">On</option>
            </select>
          )}
        </Field>
      </div>
      {choice(sandbox, 'kind') === 'none' && (
        <p className="field-error" data-testid="sandbox-none-warning">
          Without a sandbox, a command can read your secrets, change anything you can and reach the
          network.
        </p>
      )}
      {answer === null && <p className="muted">Reading what a command can see…</p>}
      {answer && 'error' in answer && (
        <div className="notice notice--error" role="alert" data-testid="sandbox-view-error">
          What a command can see could not be read: {answer.error}
        </div>
      )}
      {view && (
        <SandboxSight
          view={view}
          pending={draft.pending}
          defaultsInForce={homeDefaultsOn(draft.saved)}
          defaultsOn={homeDefaultsOn(sandbox)}
          onDefaults={(on) => setSandbox(withHomeDefaults(sandbox, on))}
        />
      )}
      <SandboxProjectPaths workspace={workspace} sandbox={sandbox} onSandbox={setSandbox} />
      <div className="sandbox-settings__group" data-testid="sandbox-every-project">
        <h4 className="sandbox-settings__subtitle">For every project</h4>
        <div className="sandbox-settings__lists">{everyProject.map(list)}</div>
      </div>
      <div className="sandbox-settings__group" data-testid="sandbox-connections">
        <h4 className="sandbox-settings__subtitle">Connections</h4>
        <div className="sandbox-settings__lists">{connections.map(list)}</div>
      </div>
      <SandboxVariables view={view} shell={draft.shell} onShell={draft.setShell} />
    </div>
  )
}
