import { useId, type JSX, type ReactNode } from 'react'
import { AlertIcon } from '../../lib/icons'
import { Field } from '../../ui/field'
import { Options } from '../../ui/options'
import { TextField } from '../../ui/text-field'
import { previewCurrent, type PreviewState } from './preview-reducer'
import { decisionOptions, scopeOptions, shellTool, type RuleDraft } from './rule-draft'
import './permissions.css'

const SHOWN_MATCHES = 5

/** Text with `code` spans, as the preview's descriptions are written; first letter capitalised. */
function withCode(text: string): ReactNode[] {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1)
  return capitalised
    .split('`')
    .map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))
}

/** What the rule would cover, from `rules.preview`; its problem instead, when it has one. */
export function RulePreviewView({
  state,
  withSession
}: {
  state: PreviewState
  withSession: boolean
}): JSX.Element {
  const { preview, error } = state
  const problem = error ?? preview?.problem ?? null
  const stale = !previewCurrent(state)
  const matches = preview?.sessionMatches ?? []
  return (
    <div
      className={`rule-preview${problem ? ' rule-preview--problem' : ''}${stale ? ' rule-preview--stale' : ''}`}
      data-testid="rule-preview"
      aria-live="polite"
      aria-busy={stale}
    >
      {problem ? (
        <p className="rule-preview__problem" data-testid="rule-problem">
          <AlertIcon size={14} />
          <span>{problem}</span>
        </p>
      ) : preview ? (
        <>
          <p className="rule-preview__description" data-testid="rule-description">
            {withCode(preview.description)}.
          </p>
          {withSession &&
            (matches.length > 0 ? (
              <div className="rule-preview__matches">
                <div className="rule-preview__label">Calls in this session it covers</div>
                <ul data-testid="rule-matches">
                  {matches.slice(0, SHOWN_MATCHES).map((match, i) => (
                    <li key={i} className="mono">
                      {match}
                    </li>
                  ))}
                </ul>
                {matches.length > SHOWN_MATCHES && (
                  <div className="rule-preview__more">
                    and {matches.length - SHOWN_MATCHES} more
                  </div>
                )}
              </div>
            ) : (
              <p className="rule-preview__none">No earlier call in this session matches it.</p>
            ))}
        </>
      ) : (
        <p className="rule-preview__none">Checking the rule…</p>
      )}
    </div>
  )
}

/**
 * A permission rule being written: where it is kept, what it applies to, and (in settings) what
 * it decides, with the live preview below. The approval modal fixes the tool and the decision.
 */
export function RuleEditor({
  draft,
  onChange,
  preview,
  withSession,
  fixedTool = false,
  showDecision = false,
  tools = [],
  toolIssue = null,
  scopes = scopeOptions.map((s) => s.value)
}: {
  draft: RuleDraft
  onChange: (draft: RuleDraft) => void
  preview: PreviewState
  withSession: boolean
  fixedTool?: boolean
  showDecision?: boolean
  /** The catalog's tool names, offered as the person types. */
  tools?: string[]
  /** Why the typed tool cannot be used (not in the catalog), shown beside the field. */
  toolIssue?: string | null
  scopes?: RuleDraft['scope'][]
}): JSX.Element {
  const id = useId()
  const isShell = draft.tool.trim() === shellTool
  const scopeHint = scopeOptions.find((s) => s.value === draft.scope)?.hint
  return (
    <div className="rule-editor" data-testid="rule-editor">
      <div className="field">
        <span className="field__label" id={`${id}-scope`}>
          Remember it for
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby={`${id}-scope`}>
          {scopeOptions
            .filter((option) => scopes.includes(option.value))
            .map((option) => (
              <label
                key={option.value}
                className={`segmented__option${draft.scope === option.value ? ' segmented__option--on' : ''}`}
              >
                <input
                  type="radio"
                  name={`${id}-scope`}
                  value={option.value}
                  checked={draft.scope === option.value}
                  data-testid={`rule-scope-${option.value}`}
                  onChange={() => onChange({ ...draft, scope: option.value })}
                />
                {option.label}
              </label>
            ))}
        </div>
        <span className="field__hint">{scopeHint}</span>
      </div>

      <div className="rule-editor__row">
        {!fixedTool && (
          <TextField
            className="rule-editor__tool"
            label="Tool"
            error={toolIssue}
            errorTestId="rule-tool-issue"
            below={
              <datalist id={`${id}-tools`}>
                {tools.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            }
            mono
            testId="rule-tool"
            list={`${id}-tools`}
            value={draft.tool}
            placeholder="Shell"
            spellCheck={false}
            autoComplete="off"
            onChange={(tool) => onChange({ ...draft, tool })}
          />
        )}
        {isShell && (
          <TextField
            className="rule-editor__command"
            label={fixedTool ? 'Commands that start with' : 'Command starts with'}
            optional
            mono
            testId="rule-command"
            value={draft.command}
            placeholder="empty: every command"
            spellCheck={false}
            autoComplete="off"
            onChange={(command) => onChange({ ...draft, command })}
          />
        )}
        {fixedTool && !isShell && (
          <p className="rule-editor__whole-tool">
            Applies to every <span className="mono">{draft.tool}</span> call, whatever its
            arguments.
          </p>
        )}
        {showDecision && (
          <Field className="rule-editor__decision" label="Decision">
            {(control) => (
              <select
                {...control}
                className="select"
                data-testid="rule-decision"
                value={draft.decision}
                onChange={(e) =>
                  onChange({ ...draft, decision: e.target.value as RuleDraft['decision'] })
                }
              >
                <Options of={decisionOptions} />
              </select>
            )}
          </Field>
        )}
      </div>

      {/* A rule for a tool that does not exist covers nothing: no preview to read. */}
      {!toolIssue && <RulePreviewView state={preview} withSession={withSession} />}
    </div>
  )
}
