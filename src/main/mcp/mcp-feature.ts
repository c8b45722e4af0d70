import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { HostHooks } from '../host-hooks'
import type { SandboxService } from '../sandbox/sandbox-service'
import type { ProjectSettingsFiles } from '../settings/project-settings'
import type { SettingsStore } from '../settings/settings-store'
import type { ToolSet } from '../tools/tool-set'
import { SEARCH_TOOL_NAMES } from '../tools/web'
import { debugEcho } from './debug-log'
import { ElicitationBroker } from './elicitation/elicitation-broker'
import { McpManager, type McpManagerOptions } from './mcp-manager'
import { oauthVault } from './oauth/oauth-vault'

export interface McpNeeds {
  options: {
    dataDir: string
    interactive: boolean
    /** `--trust-project`: run the project's own servers without asking (nothing is stored). */
    trustProject?: boolean
    /** Supervision knobs (tests shorten the restart backoff). */
    mcp?: Pick<McpManagerOptions, 'startupTimeoutMs' | 'backoff' | 'sandbox' | 'pidNamespace'>
  }
  env: NodeJS.ProcessEnv
  hooks: HostHooks
  settings: SettingsStore
  projectSettings: ProjectSettingsFiles
  tools: ToolSet
  sandbox: SandboxService
  hub: EventHub
}

/** The MCP servers of every open project folder, and their tools in the catalog. */
export const mcpFeature: Feature<McpNeeds, { mcp: McpManager }> = {
  name: 'mcp',
  start({ options, env, hooks, settings, projectSettings, tools, sandbox, hub }) {
    const mcp = new McpManager({
      dataDir: options.dataDir,
      env,
      readSecret: hooks.readSecret,
      oauthVault: oauthVault(hooks, options.dataDir),
      userSettings: () => settings.snapshot(),
      // WebSearch and WebOpen too while no backend offers them, so a server cannot take the names.
      reservedNames: () => new Set([...tools.reservedNames(), ...SEARCH_TOOL_NAMES]),
      trustProject: options.trustProject,
      echo: debugEcho(env, (text) => process.stderr.write(text)),
      onUpdate: (status) => hub.emit('mcp.updated', status),
      projectSettings,
      // Headless, a server's request for input is refused: nobody is there to answer it.
      elicitation: options.interactive ? new ElicitationBroker(hub) : null,
      // Servers with `sandbox: true` run under Shell's backend, with the settings of their start.
      sandbox: {
        wrap: (server, cwd) => sandbox.confineServer(settings.snapshot(), server, cwd)
      },
      ...options.mcp
    })
    tools.folderToolsBy((workspace) => mcp.tools(workspace))
    // Saved (or re-read) settings apply to running servers at once: no restart of the app.
    const unsubscribe = settings.onChange(() => void mcp.reconcileAll())
    return {
      provides: { mcp },
      stop: async () => {
        unsubscribe()
        await mcp.dispose()
      }
    }
  }
}
