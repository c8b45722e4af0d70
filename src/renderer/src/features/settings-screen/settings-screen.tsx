import { useEffect, useMemo, useRef, type ComponentType, type JSX } from 'react'
import type { ApprovalMode } from '../../../../shared/domain'
import { ArrowLeftIcon, LogoMark, PlusIcon } from '../../lib/icons'
import { closeSettings, useApp } from '../../app/app-store'
import { modelKey, sameModel } from '../chat'
import { ProviderForm } from './provider-form'
import { ProviderList } from './provider-list'
import { approvalModeOf } from '../settings'
import { allModels, placeIssues } from '../settings'
import { providersToSave } from '../settings'
import { loadSettings, editSettings, useSettingsView, settingsNow } from '../settings'
import { discardEverything, saveEverything } from './settings-save'
import { unsavedChanges, unsavedSummary } from './settings-draft'
import { useRulesPending } from '../permissions'
import { featureSections } from './feature-sections'
import { ToolsSection } from './tools-section'
import { useLeaveGuard } from './leave-prompt'
import { SectionBlock, SettingsNav } from './settings-nav'
import { settingsSections, type SectionId } from './settings-sections'
import { Button } from '../../ui/button'
import { FormError } from '../../ui/form-error'
import { Options } from '../../ui/options'
import { SettingsSection } from '../../ui/settings-section'
import './settings-frame.css'
import './settings.css'

/** Problems found in the settings, each at its place in the file. */
function IssueItems({
  issues
}: {
  issues: readonly { path: string; message: string; line?: number }[]
}): JSX.Element {
  return (
    <>
      {issues.map((issue, i) => (
        <li key={i}>
          {issue.line !== undefined && (
            <span className="issue-list__where">line {issue.line} · </span>
          )}
          <span className="mono">{issue.path}</span>: {issue.message}
        </li>
      ))}
    </>
  )
}

/** The sections after Permissions, which onboarding leaves out, in the order they stand. */
const laterSections: { id: SectionId; Section: ComponentType }[] = [
  { id: 'mcp', Section: featureSections.McpSection },
  { id: 'web', Section: featureSections.SearchSection },
  { id: 'memory', Section: featureSections.MemorySection },
  { id: 'skills', Section: featureSections.SkillsSection },
  { id: 'appearance', Section: featureSections.AppearanceSection },
  { id: 'notifications', Section: featureSections.NotificationsSection }
]
const { PermissionRules, SandboxSettings, PricesSection, CheckpointsSection } = featureSections

const modes: { value: ApprovalMode; label: string; hint: string }[] = [
  { value: 'ask', label: 'Ask', hint: 'Read freely; ask before anything changes files.' },
  {
    value: 'read-only',
    label: 'Read-only',
    hint: 'Read freely; refuse anything that changes files.'
  },
  {
    value: 'allow',
    label: 'Allow',
    hint: 'Run every tool without asking. Only for folders you can lose.'
  }
]

/** Providers, default model and approval mode; opens first on a fresh install. */
export function SettingsScreen(): JSX.Element {
  const state = useSettingsView((s) => s)
  const dispatch = editSettings
  const onboarding = useApp((s) => s.state.onboarding)
  const canStoreSecrets = useApp((s) => s.state.info?.canStoreSecrets ?? false)
  const keyFile = useApp((s) => s.state.info?.keyFile ?? null)

  useEffect(() => {
    // Re-read on open unless there are unsaved edits to keep.
    if (!settingsNow().dirty) void loadSettings()
  }, [])

  const { providers: pending } = useMemo(() => providersToSave(state), [state])
  const models = useMemo(() => allModels(pending), [pending])
  const placed = placeIssues(state.saveIssues, state.formIndex)
  const mode = approvalModeOf(state.draft)
  const modeHint = modes.find((m) => m.value === mode)?.hint
  const unlistedDefault =
    state.defaultModel && !models.some((m) => sameModel(m, state.defaultModel))
      ? state.defaultModel
      : null

  const rulesPending = useRulesPending()
  const unsaved = useMemo(() => unsavedChanges(state, rulesPending), [state, rulesPending])
  const summary = unsavedSummary(unsaved)
  const save = async (): Promise<void> => {
    if (!(await saveEverything())) return
    if (onboarding && settingsNow().providers.length > 0) closeSettings()
  }
  const scroller = useRef<HTMLDivElement>(null)
  // The first run shows only what a first chat needs.
  const sections = onboarding ? settingsSections.slice(0, 3) : settingsSections
  const leaveGuard = useLeaveGuard(unsaved.any, closeSettings, saveEverything, discardEverything)

  return (
    <div className="settings" role="region" aria-label="Settings" data-testid="settings-screen">
      <header className="settings__header">
        {!onboarding && (
          <Button tone="ghost" data-testid="settings-close" onClick={leaveGuard.request}>
            <ArrowLeftIcon /> Back
          </Button>
        )}
        <h1 className="settings__title">{onboarding ? 'Set up Mecatl' : 'Settings'}</h1>
        {onboarding && (
          <Button tone="ghost" className="settings__skip" onClick={leaveGuard.request}>
            Skip for now
          </Button>
        )}
      </header>

      <div className="settings__body">
        <SettingsNav
          sections={sections}
          scroller={scroller}
          unsaved={unsaved.sections}
          summary={summary}
        />
        <div className="settings__scroll" ref={scroller}>
          <div className="settings__content">
            {onboarding && (
              <section className="onboarding" data-testid="onboarding">
                <LogoMark size={36} />
                <div>
                  <h2 className="onboarding__title">Welcome to Mecatl</h2>
                  <p className="onboarding__text">
                    Mecatl works in your project folders with the help of an AI model. Connect a
                    model provider to begin: Anthropic or OpenAI with an API key, or a model running
                    on your own machine through any OpenAI-compatible server, such as Ollama or LM
                    Studio.
                  </p>
                </div>
              </section>
            )}

            {state.status === 'error' && (
              <div className="notice notice--error" role="alert">
                Settings could not be read: {state.loadError}
                <button type="button" className="link-button" onClick={() => void loadSettings()}>
                  Try again
                </button>
              </div>
            )}

            {state.fileIssues.length > 0 && (
              <div className="notice notice--warn" data-testid="settings-file-issues" role="alert">
                <div className="notice__title">
                  The settings file has problems: <span className="mono">{state.path}</span>
                </div>
                <ul className="issue-list">
                  <IssueItems issues={state.fileIssues} />
                </ul>
                <div className="notice__hint">
                  Fix them here and save, or edit the file by hand.
                </div>
              </div>
            )}

            <SectionBlock id="providers">
              <SettingsSection
                name="providers"
                title="Providers"
                intro="Where models come from. Keys stay out of the settings file."
                aside={
                  !state.form.open && (
                    <Button
                      data-testid="add-provider-button"
                      onClick={() => dispatch({ type: 'form-open', index: null })}
                    >
                      <PlusIcon /> Add provider
                    </Button>
                  )
                }
              >
                {state.status === 'ready' && state.providers.length === 0 && !state.form.open && (
                  <p className="muted">No provider yet.</p>
                )}
                <ProviderList providers={state.providers} editing={state.form.editing} />
                {state.form.open && (
                  <ProviderForm
                    form={state.form}
                    canStoreSecrets={canStoreSecrets}
                    keyFile={keyFile}
                    issues={placed.form}
                    canCancel={state.providers.length > 0 || state.form.editing !== null}
                  />
                )}
              </SettingsSection>
            </SectionBlock>

            <SectionBlock id="models">
              <SettingsSection name="models" title="Default model">
                <label className="field">
                  <span className="field__hint">
                    New sessions use it; each session can switch in its header.
                  </span>
                  <select
                    className="select"
                    data-testid="default-model-select"
                    value={state.defaultModel ? modelKey(state.defaultModel) : ''}
                    onChange={(e) =>
                      dispatch({
                        type: 'default-model',
                        model: models.find((m) => modelKey(m) === e.target.value) ?? null
                      })
                    }
                    {...(placed.defaultModel ? { 'aria-invalid': true } : {})}
                  >
                    <option value="">
                      {models.length
                        ? 'None — choose per session'
                        : 'Test a provider to list its models'}
                    </option>
                    {unlistedDefault && (
                      <option value={modelKey(unlistedDefault)}>
                        {unlistedDefault.providerId} / {unlistedDefault.model} (not listed)
                      </option>
                    )}
                    {models.map((model) => (
                      <option key={modelKey(model)} value={modelKey(model)}>
                        {model.providerId} / {model.model}
                      </option>
                    ))}
                  </select>
                  {placed.defaultModel && <p className="field-error">{placed.defaultModel}</p>}
                </label>
              </SettingsSection>
              {!onboarding && <PricesSection />}
            </SectionBlock>

            <SectionBlock id="permissions">
              <SettingsSection name="approvals" title="Permissions" testId="permissions-section">
                <div className="mode-row">
                  <span className="mode-row__current">
                    Current mode: <strong data-testid="approval-mode-current">{mode}</strong>
                  </span>
                  <select
                    className="select select--compact"
                    data-testid="approval-mode-select"
                    aria-label="Approval mode"
                    value={mode}
                    onChange={(e) =>
                      dispatch({ type: 'mode', mode: e.target.value as ApprovalMode })
                    }
                  >
                    <Options of={modes} />
                  </select>
                </div>
                <p className="field__hint">{modeHint}</p>
                {placed.mode && <p className="field-error">{placed.mode}</p>}
                {!onboarding && <PermissionRules />}
                {!onboarding && <SandboxSettings />}
              </SettingsSection>

              {!onboarding && <ToolsSection />}
              {!onboarding && <CheckpointsSection />}
            </SectionBlock>

            {!onboarding &&
              laterSections.map(({ id, Section }) => (
                <SectionBlock key={id} id={id}>
                  <Section />
                </SectionBlock>
              ))}
          </div>
        </div>
      </div>

      <footer
        className={`settings__footer${unsaved.any ? ' settings__footer--unsaved' : ''}`}
        data-testid="settings-save-bar"
      >
        <div className="settings__footer-inner">
          <div className="settings__status">
            {state.saveIssues.length > 0 && (
              <ul
                className="issue-list issue-list--error"
                data-testid="settings-issues"
                role="alert"
              >
                <IssueItems issues={state.saveIssues} />
              </ul>
            )}
            <FormError error={state.saveError} />
            {state.saveIssues.length === 0 && !state.saveError && (
              <span
                className={unsaved.any ? 'settings__unsaved' : 'muted'}
                data-testid="settings-save-status"
              >
                {unsaved.any ? (
                  summary
                ) : state.savedAt ? (
                  'Saved'
                ) : state.path ? (
                  <>
                    Settings file: <span className="mono">{state.path}</span>
                  </>
                ) : null}
              </span>
            )}
          </div>
          {unsaved.any && !onboarding && (
            <Button
              data-testid="settings-discard"
              disabled={state.saving}
              onClick={() => void discardEverything()}
            >
              Discard
            </Button>
          )}
          <Button
            tone="primary"
            data-testid="provider-save-button"
            onClick={() => void save()}
            disabled={state.saving || state.status !== 'ready'}
          >
            {state.saving ? 'Saving…' : onboarding ? 'Save and continue' : 'Save'}
          </Button>
        </div>
      </footer>
      {leaveGuard.prompt}
    </div>
  )
}
