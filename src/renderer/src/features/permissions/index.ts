// Permission rules and the sandbox as the rest of the window sees them: their Settings sections,
// the "Always allow" editor an approval offers, the sandbox's state for the taint badge, and
// the steps the Settings Save bar takes.
export { PermissionRules } from './permission-rules'
export {
  discardRuleChanges,
  loadRules,
  saveAndReloadRules,
  useRulesPending
} from './permissions-store'
export { saveBlocker, type PreviewState } from './preview-reducer'
export { draftForRequest, type RuleDraft } from './rule-draft'
export { RuleEditor } from './rule-editor'
export { saveRuleFor, workspaceOf } from './rule-edits'
export { sandboxWarning } from './sandbox-model'
export { SandboxSettings } from './sandbox-settings'
export { useRulePreview } from './use-rule-preview'
export { useSandboxStatus } from './use-sandbox-status'
