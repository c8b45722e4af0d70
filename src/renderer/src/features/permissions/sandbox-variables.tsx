import type { JSX } from 'react'
import type { SandboxView } from '../../../../shared/sandbox'
import { AlertIcon } from '../../lib/icons'
import { passthroughOf, withPassthrough, type RawShell } from './sandbox-model'
import { variableWarnings } from './sandbox-sight-model'
import { SandboxListField } from './sandbox-list-field'

function Names({ names, testId }: { names: readonly string[]; testId: string }): JSX.Element {
  return (
    <ul className="sandbox-names" data-testid={testId}>
      {names.map((name) => (
        <li key={name} className="sandbox-names__name mono">
          {name}
        </li>
      ))}
    </ul>
  )
}

/**
 * "Variables commands get": the names every command gets when they are set, those the person
 * lets through (`shell.env_passthrough`, edited here) and Mecatl's own keys, which never pass.
 */
export function SandboxVariables({
  view,
  shell,
  onShell
}: {
  view: SandboxView | null
  shell: RawShell
  onShell: (next: RawShell) => void
}): JSX.Element {
  const listed = passthroughOf(shell)
  const warnings = variableWarnings(listed, view?.env.never ?? [])
  return (
    <div className="sandbox-settings__group" data-testid="sandbox-variables">
      <h4 className="sandbox-settings__subtitle">Variables commands get</h4>
      <p className="field__hint">
        Nothing else of Mecatl’s environment reaches a command: whatever a command can print, the
        model reads.
      </p>
      {view && (
        <div className="sandbox-names__row">
          <span className="field__label">Always, when set</span>
          <Names names={view.env.fixed} testId="sandbox-env-fixed" />
        </div>
      )}
      <SandboxListField
        label="Also these"
        hint="One name a line, such as JAVA_HOME or GOPATH."
        testId="sandbox-env_passthrough"
        value={listed.join('\n')}
        onChange={(text) => onShell(withPassthrough(shell, text))}
      >
        {warnings.length > 0 && (
          <div role="alert" data-testid="sandbox-env-warnings">
            <ul className="sandbox-warnings">
              {warnings.map((warning) => (
                <li key={warning.name} className="notice notice--warn notice--row">
                  <AlertIcon />
                  <span>{warning.text}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </SandboxListField>
      {view && view.env.never.length > 0 && (
        <div className="sandbox-names__row">
          <span className="field__label">Never, whatever the list says</span>
          <Names names={view.env.never} testId="sandbox-env-never" />
          <span className="field__hint">The keys Mecatl itself uses, for models and search.</span>
        </div>
      )}
    </div>
  )
}
