// What a server supervisor is given: the server's settings and where they came from, and what it
// runs the server with (folder, environment, sandbox, sign-ins, restart policy, a person to ask).
import type { McpServerSettings } from '../../shared/mcp'
import type { Backoff } from './backoff'
import type { LogEcho } from './debug-log'
import type { AskPerson } from './elicitation/server-elicitation'
import type { OAuthVault } from './oauth/oauth-vault'
import type { SecretSource } from './remote-transport'
import type { SandboxBackend } from '../sandbox/sandboxed-server'

/** A server's settings with where they came from. */
export interface ResolvedServer {
  settings: McpServerSettings
  origin: 'user' | 'project'
}

export interface SupervisorDeps {
  /** The project folder: the server's working directory. */
  cwd: string
  appEnv: NodeJS.ProcessEnv
  /** Where a remote server's header references are read (the app's environment, stored keys). */
  secrets: SecretSource
  /** Where remote servers' OAuth sign-ins are kept; none: no server signs in. */
  oauthVault?: OAuthVault
  timeZone: string
  /** Mecatl's own key variables, never a sandboxed server's (see server-target.ts). */
  mecatlKeys?: () => Promise<ReadonlySet<string>>
  startupTimeoutMs: number
  sandbox: SandboxBackend | null
  /** false: unsandboxed servers get no PID namespace of their own (see server-target.ts). */
  pidNamespace?: boolean
  backoff: Backoff
  /**
   * Tool names already taken by others, for raw-named tools: each with who has it (`the
   * built-in tool Read`, `a tool of MCP server "notes"`).
   */
  takenNames: (server: string) => ReadonlyMap<string, string>
  /** `MECATL_LOG=debug`: every log line as it comes, with this server's name. */
  echo?: LogEcho
  /** Something a person would see changed: state, tools, log. */
  onChange: () => void
  /** Shows a server's request for input in the project's window; absent headless (refused). */
  askPerson?: AskPerson
}
