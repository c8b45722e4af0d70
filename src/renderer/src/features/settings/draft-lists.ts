import { approvalModeSchema, type ApprovalMode } from '../../../../shared/domain'
import { mcpServerSettingsSchema, type McpServerSettingsInput } from '../../../../shared/mcp'
import {
  readsAs,
  settingOf,
  withSetting,
  type DraftValues,
  type SettingsDraft
} from './draft-values'

type PermissionsInput = NonNullable<DraftValues['permissions']>
/** A permission rule as the settings file writes it. */
export type RuleSettingsInput = NonNullable<PermissionsInput['rules']>[number]

// One empty list for every draft, so a selector returning it does not re-render.
const none: readonly never[] = []

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value)
}

// Edits start from the setting as it stands, read or not, so a part that does not read yet is
// kept beside the edit instead of being replaced by it.
function permissionsAsTheyStand(draft: SettingsDraft): Record<string, unknown> {
  const permissions = settingOf(draft, 'permissions')
  return isRecord(permissions) ? permissions : {}
}

function rulesAsTheyStand(permissions: Record<string, unknown>): unknown[] {
  return Array.isArray(permissions.rules) ? permissions.rules : []
}

function withPermissions(
  draft: SettingsDraft,
  edit: (permissions: Record<string, unknown>) => Record<string, unknown>
): SettingsDraft {
  return withSetting(draft, 'permissions', edit(permissionsAsTheyStand(draft)))
}

/** The approval mode the draft sets: `ask` when it sets none the schema reads. */
export function approvalModeOf(draft: SettingsDraft): ApprovalMode {
  const mode = approvalModeSchema.safeParse(permissionsAsTheyStand(draft).mode)
  return mode.success ? mode.data : 'ask'
}

export function withMode(draft: SettingsDraft, mode: ApprovalMode): SettingsDraft {
  return withPermissions(draft, (permissions) => ({ ...permissions, mode }))
}

/**
 * The user's permission rules (the file's `permissions.rules`), or null while `permissions` does
 * not read: its problem is listed with the file's, and no rule of it is shown as if in force.
 */
export function userRulesOf(draft: SettingsDraft): readonly RuleSettingsInput[] | null {
  if (Object.hasOwn(draft.unread, 'permissions')) return null
  return draft.values.permissions?.rules ?? none
}

export function withRuleAdded(draft: SettingsDraft, rule: RuleSettingsInput): SettingsDraft {
  return withPermissions(draft, (permissions) => ({
    ...permissions,
    rules: [...rulesAsTheyStand(permissions), rule]
  }))
}

/** The draft without the user's rule at `index`, its place in the list as shown. */
export function withRuleRemoved(draft: SettingsDraft, index: number): SettingsDraft {
  return withPermissions(draft, (permissions) => ({
    ...permissions,
    rules: rulesAsTheyStand(permissions).filter((_, i) => i !== index)
  }))
}

/**
 * The user's MCP servers as the draft holds them, one per entry of the file's `mcp` list, whether
 * the schema reads it or not: an index here is an index there.
 */
export function mcpEntriesOf(draft: SettingsDraft): readonly unknown[] {
  const list = settingOf(draft, 'mcp')
  return Array.isArray(list) ? list : none
}

/** The draft with `server` at `index` of the `mcp` list, or added at its end (index null). */
export function withServerPut(
  draft: SettingsDraft,
  index: number | null,
  server: McpServerSettingsInput
): SettingsDraft {
  const list = mcpEntriesOf(draft)
  const next =
    index === null || index >= list.length
      ? [...list, server]
      : list.map((entry, i) => (i === index ? server : entry))
  return withSetting(draft, 'mcp', next)
}

export function withServerRemoved(draft: SettingsDraft, index: number): SettingsDraft {
  return withSetting(
    draft,
    'mcp',
    mcpEntriesOf(draft).filter((_, i) => i !== index)
  )
}

export function withServersAdded(
  draft: SettingsDraft,
  servers: readonly McpServerSettingsInput[]
): SettingsDraft {
  return withSetting(draft, 'mcp', [...mcpEntriesOf(draft), ...servers])
}

// A server the schema does not read is put right in its form first: a switch would guess at it.
function editServer(
  draft: SettingsDraft,
  index: number,
  edit: (server: McpServerSettingsInput) => McpServerSettingsInput
): SettingsDraft {
  const server = mcpEntriesOf(draft)[index]
  if (!readsAs(mcpServerSettingsSchema, server)) return draft
  return withServerPut(draft, index, edit(server))
}

/** On is the default, so switching a server on takes `enabled` out of the file. */
export function withServerEnabled(
  draft: SettingsDraft,
  index: number,
  enabled: boolean
): SettingsDraft {
  return editServer(draft, index, (server) => {
    const next = { ...server }
    if (enabled) delete next.enabled
    else next.enabled = false
    return next
  })
}

/** One tool of a server (its name at the server) switched on or off, in `disabled_tools`. */
export function withToolEnabled(
  draft: SettingsDraft,
  index: number,
  tool: string,
  enabled: boolean
): SettingsDraft {
  return editServer(draft, index, (server) => {
    const off = (server.disabled_tools ?? []).filter((name) => name !== tool)
    if (!enabled) off.push(tool)
    const next = { ...server }
    if (off.length > 0) next.disabled_tools = off
    else delete next.disabled_tools
    return next
  })
}
