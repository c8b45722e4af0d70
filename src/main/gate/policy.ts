import type { ApprovalMode } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import type { GatePolicy } from './gate'
import type { PermissionRule } from './rules'

export interface PolicyContext {
  workspace: string
  /** A mode forced from the command line wins over the settings. */
  modeOverride?: ApprovalMode
  /** Rules that hold for one session only. */
  sessionRules?: readonly PermissionRule[]
  /** Every scope's rules already gathered (a RuleBook's `effective`), instead of the settings'. */
  rules?: readonly PermissionRule[]
  /** Reads every scope's rules afresh for each call (see GatePolicy.currentRules). */
  currentRules?: () => Promise<readonly PermissionRule[]>
  autoApprove?: boolean
  planning?: boolean
}

/** The gate's policy from the settings in force, as sessions and the CLI's `call` both use it. */
export function gatePolicy(settings: Settings, context: PolicyContext): GatePolicy {
  return {
    mode: context.modeOverride ?? settings.permissions.mode,
    workspace: context.workspace,
    rules: context.rules ?? [...(context.sessionRules ?? []), ...settings.permissions.rules],
    currentRules: context.currentRules,
    hooks: settings.hooks,
    blockSendsAfterPrivate: settings.block_sends_after_private,
    autoApprove: context.autoApprove ?? false,
    planning: context.planning ?? false
  }
}
