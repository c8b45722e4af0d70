import type { ApprovalMode, ModelRef } from '../../shared/domain'
import type { Settings } from '../../shared/settings'
import type { Approver } from '../gate/gate'
import type { RuleBook } from '../gate/rule-book'
import type { ProviderLookup } from '../providers/provider-lookup'
import type { EventHub } from '../events/event-hub'
import type { SessionStore } from '../store/session-store'
import type { ToolSet } from '../tools/tool-set'
import type { Checkpoints } from '../checkpoints/checkpoints'
import type { WorkspaceTrust } from '../workspace/workspace-trust'

/** What the person chose when starting this process, over what the settings say. */
export interface LaunchChoices {
  /** A mode forced from the command line wins over the settings file. */
  modeOverride?: ApprovalMode
  /** `--yes`: allow what the mode would ask about (never a prompt rule or the interlock). */
  autoApprove?: boolean
  /** The model new sessions start with, instead of the settings' default (CLI flags). */
  defaultModel?: ModelRef
}

/**
 * The parts every turn is assembled from, taken from the core's services record by the sessions
 * feature. Sessions, child agents and `mecatl call` all take their turns from these through the
 * TurnAssembler.
 */
export interface TurnServices {
  /** The settings in force now (the file, or its last valid copy): a snapshot, taken per turn. */
  settings: () => Settings
  /** Every scope's permission rules; a session's own rules live on the session. */
  rules: RuleBook | null
  /** Who is asked when the gate needs a person (nobody, headless). */
  approver: Approver
  providers: ProviderLookup
  /** The built-in tools (and a folder's MCP tools) under the settings of the moment. */
  tools: ToolSet
  /** Where sessions are recorded; without it (some tests) they live only in memory. */
  store: SessionStore | null
  /** Where sessions save tool outputs cut to the turn's budget: `<dataDir>/spill`. */
  spillRoot: string
  hub: EventHub
  /** The person's folder of instructions and skills (MECATL_HOME or ~/.config/mecatl). */
  userDir?: string
  /** Whether the person trusts each folder's authors (`--trust-project`: all, for this run). */
  trust: WorkspaceTrust
  launch: LaunchChoices
  /** The project folders' checkpoints (shadow stores in the data directory). */
  checkpoints?: Checkpoints
}
