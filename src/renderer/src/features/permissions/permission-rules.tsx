import { useEffect, useState, type JSX } from 'react'
import { call } from '../../bridge/client'
import { ltrPath } from '../../lib/format'
import { errorMessage } from '../../lib/errors'
import { AlertIcon, PlusIcon } from '../../lib/icons'
import { useSelectedSessionId, useWorkspace } from '../sessions'
import { userRulesOf, useSettingsView } from '../settings'
import { ruleGroups, type ListedRule, type RuleGroup } from './permissions-reducer'
import { loadRules, trustProjectRules, usePermissions } from './permissions-store'
import { addRule, removeRule } from './rule-edits'
import { saveBlocker } from './preview-reducer'
import { coversEveryShellCall, everyShellCallWarning, toolProblem } from './rule-checks'
import { RuleEditor } from './rule-editor'
import { decisionLabel, ruleKey, ruleTarget, type RuleDraft, type RuleView } from './rule-draft'
import { withPending } from './rule-ops'
import { useRulePreview } from './use-rule-preview'

const decisionTones: Record<RuleView['decision'], string> = {
  allow: 'green',
  prompt: 'amber',
  forbid: 'red'
}

function RuleRow({ item, busy }: { item: ListedRule; busy: boolean }): JSX.Element {
  const { rule } = item
  return (
    <li
      className={`rule-row${item.dormant ? ' rule-row--dormant' : ''}`}
      data-testid="rule-row"
      data-scope={item.scope}
    >
      <span className={`badge badge--${decisionTones[rule.decision]} rule-row__decision`}>
        {decisionLabel(rule.decision)}
      </span>
      <span className="rule-row__what">
        <span className="mono rule-row__tool">{rule.tool}</span>
        {rule.command !== undefined ? (
          <>
            {' '}
            commands starting with <code className="rule-row__command">{rule.command}</code>
          </>
        ) : (
          <span className="rule-row__any"> · {ruleTarget(rule)}</span>
        )}
      </span>
      {item.dormant && <span className="badge badge--neutral">Not applied until trusted</span>}
      <button
        type="button"
        className="button button--small button--ghost-danger"
        data-testid="rule-remove"
        disabled={busy}
        aria-label={`Remove the rule: ${decisionLabel(rule.decision)} ${rule.tool} ${ruleTarget(rule)}`}
        onClick={() => removeRule(item.scope, item.index)}
      >
        Remove
      </button>
    </li>
  )
}

function Group({
  group,
  trusted,
  busy
}: {
  group: RuleGroup
  trusted: boolean
  busy: boolean
}): JSX.Element {
  const dormant = group.rules.filter((r) => r.dormant).length
  return (
    <div className="rule-group" data-testid={`rule-group-${group.scope}`}>
      <div className="rule-group__head">
        <h3 className="rule-group__title">{group.title}</h3>
        {group.path && (
          <span className="rule-group__path mono" title={group.path}>
            {ltrPath(group.path)}
          </span>
        )}
      </div>
      {group.scope === 'project' && !trusted && dormant > 0 && (
        <div className="notice notice--warn rule-group__trust" data-testid="rules-untrusted">
          <div className="notice__title">
            <AlertIcon size={14} /> This project’s allow rules are not applied
          </div>
          <div className="notice__hint">
            {dormant === 1 ? 'One rule' : `${dormant} rules`} in this folder’s settings would let
            tools run without asking. A folder you cloned could have written them, so they apply
            only once you have read them and trust them. Its forbid and ask rules always apply.
          </div>
          <div>
            <button
              type="button"
              className="button button--small"
              data-testid="rules-trust"
              disabled={busy}
              onClick={() => void trustProjectRules()}
            >
              Trust these rules
            </button>
          </div>
        </div>
      )}
      {group.problem ? (
        <p className="rule-group__empty">{group.problem}</p>
      ) : group.rules.length === 0 ? (
        <p className="rule-group__empty">
          {group.scope === 'session'
            ? 'None. “Always allow” for this session adds rules here.'
            : 'None.'}
        </p>
      ) : (
        <ul className="rule-list">
          {group.rules.map((item) => (
            <RuleRow key={ruleKey(item.scope, item.index, item.rule)} item={item} busy={busy} />
          ))}
        </ul>
      )}
    </div>
  )
}

function AddRuleForm({
  draft,
  workspace,
  sessionId
}: {
  draft: RuleDraft
  workspace: string
  sessionId: string | null
}): JSX.Element {
  const dispatch = usePermissions((s) => s.dispatch)
  const busy = usePermissions((s) => s.state.busy)
  // null while the catalog is read; a rule may only name a tool that is in it.
  const [tools, setTools] = useState<string[] | null>(null)
  const [catalogError, setCatalogError] = useState<string | null>(null)
  // Set once Save was pressed on a rule covering every Shell call; any edit asks again.
  const [confirming, setConfirming] = useState<RuleDraft | null>(null)
  const preview = useRulePreview(workspace, sessionId, draft)
  const toolIssue = catalogError ? null : toolProblem(draft.tool, tools)
  const blocker = catalogError ?? toolIssue ?? saveBlocker(preview)
  const asking = confirming === draft

  useEffect(() => {
    call('tools.list', { workspace })
      .then(({ tools: listed }) => setTools(listed.map((t) => t.name)))
      .catch((error: unknown) =>
        setCatalogError(
          `The tool catalog could not be read (${errorMessage(error)}); close the form and try again.`
        )
      )
  }, [workspace])

  return (
    <div className="rule-form" data-testid="rule-form">
      <div className="rule-form__title">Add a rule</div>
      <RuleEditor
        draft={draft}
        onChange={(next) => dispatch({ type: 'form-change', draft: next })}
        preview={preview}
        withSession={sessionId !== null}
        showDecision
        tools={tools ?? []}
        toolIssue={draft.tool === '' || tools === null ? null : toolIssue}
        scopes={sessionId ? ['session', 'project', 'user'] : ['project', 'user']}
      />
      {catalogError && (
        <p className="field-error" role="alert">
          {catalogError}
        </p>
      )}
      {asking && (
        <div className="rule-form__confirm" role="alert" data-testid="rule-all-shell-confirm">
          <p>{everyShellCallWarning(draft.decision)}</p>
          <div className="rule-form__actions">
            <button
              type="button"
              className="button"
              data-testid="rule-all-shell-back"
              onClick={() => {
                setConfirming(null)
                document.querySelector<HTMLInputElement>('[data-testid="rule-command"]')?.focus()
              }}
            >
              Add a command prefix
            </button>
            <button
              type="button"
              className="button button--danger-outline"
              data-testid="rule-all-shell-save"
              disabled={busy || blocker !== null}
              onClick={() => addRule(draft)}
            >
              Add for every Shell call
            </button>
          </div>
        </div>
      )}
      <div className="rule-form__actions">
        <button
          type="button"
          className="button"
          onClick={() => dispatch({ type: 'form-close' })}
          disabled={busy}
        >
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          data-testid="rule-save"
          disabled={busy || blocker !== null || asking}
          title={blocker ?? undefined}
          onClick={() => (coversEveryShellCall(draft) ? setConfirming(draft) : addRule(draft))}
        >
          Add rule
        </button>
      </div>
    </div>
  )
}

/**
 * The permission rules of every scope, under the approval mode in Settings. Adding or removing a
 * rule edits the draft, shown as it will be; the Save bar writes it with the rest of Settings.
 */
export function PermissionRules(): JSX.Element {
  const workspace = useWorkspace()
  const sessionId = useSelectedSessionId()
  const userRules = useSettingsView((s) => userRulesOf(s.draft))
  const state = usePermissions((s) => s.state)
  const dispatch = usePermissions((s) => s.dispatch)

  useEffect(() => {
    if (workspace) void loadRules({ workspace, sessionId })
  }, [workspace, sessionId])

  if (!workspace) {
    const rules = userRules?.length ?? 0
    return (
      <p className="field__hint" data-testid="rules-no-project">
        {rules > 0 ? `Your settings hold ${rules} permission rule${rules === 1 ? '' : 's'}. ` : ''}
        Open a project folder to see and change the rules in force there: yours, the project’s and
        the session’s.
      </p>
    )
  }

  const view = state.view && withPending(state.view, state.pending)
  return (
    <div className="permission-rules" data-testid="permission-rules">
      <div className="permission-rules__head">
        <div>
          <h3 className="permission-rules__title">Rules</h3>
          <p className="field__hint">
            Checked before the mode: a rule can allow a tool or a command without asking, always
            ask, or forbid it. The strictest matching rule wins. Added and removed rules are kept
            once you save.
          </p>
        </div>
        {!state.draft && (
          <button
            type="button"
            className="button"
            data-testid="rule-add"
            disabled={!view}
            onClick={() =>
              dispatch({
                type: 'form-open',
                draft: {
                  scope: sessionId ? 'session' : 'project',
                  tool: 'Shell',
                  command: '',
                  decision: 'allow'
                }
              })
            }
          >
            <PlusIcon /> Add rule
          </button>
        )}
      </div>
      {state.status === 'loading' && <p className="muted">Reading the rules…</p>}
      {state.status === 'error' && (
        <div className="notice notice--error" role="alert">
          The rules could not be read: {state.loadError}
          <button
            type="button"
            className="link-button"
            onClick={() => void loadRules({ workspace, sessionId })}
          >
            Try again
          </button>
        </div>
      )}
      {state.actionError && (
        <p className="field-error" role="alert" data-testid="rules-error">
          {state.actionError}
        </p>
      )}
      {state.draft && (
        <AddRuleForm draft={state.draft} workspace={workspace} sessionId={sessionId} />
      )}
      {view &&
        ruleGroups(view, userRules, sessionId !== null).map((group) => (
          <Group key={group.scope} group={group} trusted={view.project.trusted} busy={state.busy} />
        ))}
    </div>
  )
}
