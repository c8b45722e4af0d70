import type { McpServerSettings, McpServerView } from '../../shared/mcp'
import type { Tool } from '../tools/tool'

/** What a server's view shows of its settings alone (never a header's or a token's value). */
export type SettingsPart = Pick<
  McpServerView,
  | 'name'
  | 'origin'
  | 'command'
  | 'args'
  | 'url'
  | 'transport'
  | 'headerNames'
  | 'auth'
  | 'envNames'
  | 'enabled'
  | 'sandbox'
>

/** The part of a server's view its settings decide; a remote transport unset is not known yet. */
export function settingsPart(s: McpServerSettings, origin: 'user' | 'project'): SettingsPart {
  return {
    name: s.name,
    origin,
    command: s.command ?? null,
    args: [...s.args],
    url: s.url ?? null,
    transport: s.url === undefined ? 'stdio' : (s.transport ?? null),
    headerNames: Object.keys(s.headers ?? {}),
    auth: s.auth?.type ?? 'none',
    envNames: [...Object.keys(s.env), ...s.env_passthrough],
    enabled: s.enabled,
    sandbox: s.sandbox
  }
}

/** One catalog tool of a server as its row lists it. */
export function toolView(tool: Tool): McpServerView['tools'][number] {
  return {
    name: tool.name,
    description: tool.description,
    readOnly: tool.readOnly,
    source: tool.source,
    capabilities: { ...tool.capabilities }
  }
}
