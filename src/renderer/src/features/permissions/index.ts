// Permission rules and the sandbox as the rest of the window sees them: their Settings sections,
// the "Always allow" editor an approval offers, the sandbox's state for the taint badge, and
// the steps the Settings Save bar takes.
import { lazySection } from '../../ui/lazy-section'
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
export { useRulePreview } from './use-rule-preview'
export { useSandboxStatus } from './use-sandbox-status'

// Its sections of Settings load with the Settings page, not with the window (ui/lazy-section.tsx).
export const PermissionRules = lazySection(() =>
  import('./permission-rules').then((module) => module.PermissionRules)
)
export const SandboxSettings = lazySection(() =>
  import('./sandbox-settings').then((module) => module.SandboxSettings)
)
