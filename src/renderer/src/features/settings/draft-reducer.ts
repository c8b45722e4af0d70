import type { ApprovalMode } from '../../../../shared/domain'
import type { McpServerSettingsInput } from '../../../../shared/mcp'
import {
  withMode,
  withRuleAdded,
  withRuleRemoved,
  withServerEnabled,
  withServerPut,
  withServerRemoved,
  withServersAdded,
  withToolEnabled,
  type RuleSettingsInput
} from './draft-lists'
import { withSetting, type DraftKey, type SettingsDraft } from './draft-values'

/**
 * The edits of the settings draft, whichever screen makes them: Permissions and MCP servers
 * dispatch these too, so an edit made in one place is the draft everywhere.
 */
export type DraftAction =
  /**
   * A whole setting as an editor that reads its setting leniently built it, perhaps half typed:
   * filed as read or unread by the schema.
   */
  | { type: 'section-edit'; key: DraftKey; value: unknown }
  | { type: 'mode'; mode: ApprovalMode }
  | { type: 'rule-add'; rule: RuleSettingsInput }
  /** `index`: the rule's place in the user's list as shown. */
  | { type: 'rule-remove'; index: number }
  /** `index` null: a new server, added at the end. */
  | { type: 'mcp-server-put'; index: number | null; server: McpServerSettingsInput }
  | { type: 'mcp-server-remove'; index: number }
  | { type: 'mcp-server-enabled'; index: number; enabled: boolean }
  | { type: 'mcp-tool-enabled'; index: number; tool: string; enabled: boolean }
  | { type: 'mcp-servers-add'; servers: readonly McpServerSettingsInput[] }

export function draftReducer(draft: SettingsDraft, action: DraftAction): SettingsDraft {
  switch (action.type) {
    case 'section-edit':
      return withSetting(draft, action.key, action.value)
    case 'mode':
      return withMode(draft, action.mode)
    case 'rule-add':
      return withRuleAdded(draft, action.rule)
    case 'rule-remove':
      return withRuleRemoved(draft, action.index)
    case 'mcp-server-put':
      return withServerPut(draft, action.index, action.server)
    case 'mcp-server-remove':
      return withServerRemoved(draft, action.index)
    case 'mcp-server-enabled':
      return withServerEnabled(draft, action.index, action.enabled)
    case 'mcp-tool-enabled':
      return withToolEnabled(draft, action.index, action.tool, action.enabled)
    case 'mcp-servers-add':
      return withServersAdded(draft, action.servers)
  }
}
