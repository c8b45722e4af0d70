import type { JSX } from 'react'
import type { ApprovalRequest } from '../../../../shared/approvals'
import { prettyJson } from '../../lib/format'
import { inputString } from '../../../../shared/tool-input'
import { DiffView } from '../../ui/diff-view'
import { capabilityBadges, reasonParts } from './describe-approval'
import { shellFindings, shownCommand } from './shell-words'

/** Words the main process quoted in backticks, shown as code. */
function Quoted({ text }: { text: string }): JSX.Element {
  return (
    <>
      {reasonParts(text).map((part, i) =>
        part.code ? (
          <code key={i} className="mono">
            {part.text}
          </code>
        ) : (
          part.text
        )
      )}
    </>
  )
}

/**
 * A Shell call (main sends what the rules' parser found only for one): the command itself,
 * large, then what the parser found in it.
 */
function ShellCommand({ request }: { request: ApprovalRequest }): JSX.Element | null {
  const command = inputString(request.input, 'command')
  if (command === null) return null
  return (
    <div className="approval__section">
      <div className="approval__label">Command</div>
      <pre className="approval__command" data-testid="approval-command">
        {shownCommand(command)}
      </pre>
      {request.shell && (
        <ul className="approval__findings" data-testid="approval-shell-findings">
          {shellFindings(request.shell).map((finding) => (
            <li key={finding.kind} data-kind={finding.kind}>
              <span className="approval__finding-summary">
                {finding.summary}
                {finding.items.length > 0 ? ':' : '.'}
              </span>
              {finding.items.length > 0 && (
                <ul className="approval__finding-items">
                  {finding.items.map((item, i) => (
                    <li key={i}>
                      {finding.kind === 'concerns' ? (
                        <Quoted text={shownCommand(item)} />
                      ) : (
                        <code className="mono">{shownCommand(item)}</code>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Everything the person reads about one call before deciding. */
export function ApprovalDetails({ request }: { request: ApprovalRequest }): JSX.Element {
  const { preview } = request
  return (
    <>
      <p id="approval-sentence" className="approval__sentence">
        {request.sentence}
      </p>
      <div className="approval__badges" data-testid="approval-capabilities">
        {capabilityBadges(request.readOnly, request.capabilities, request.changes).map((badge) => (
          <span key={badge.label} className={`badge badge--cap-${badge.tone}`} title={badge.title}>
            {badge.label}
          </span>
        ))}
      </div>
      {request.reason && (
        <p className="approval__why" data-testid="approval-why">
          Asked because <Quoted text={request.reason} />.
        </p>
      )}
      {request.shell && <ShellCommand request={request} />}
      {preview && (
        <div className="approval__section" data-testid="approval-diff">
          <DiffView display={preview} />
        </div>
      )}
      <details className="approval__section approval__more">
        <summary className="approval__label">All arguments</summary>
        <pre className="approval__code approval__args" data-testid="approval-args" tabIndex={0}>
          {prettyJson(request.input) || '{}'}
        </pre>
      </details>
    </>
  )
}
