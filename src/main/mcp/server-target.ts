import type { McpServerSettings } from '../../shared/mcp'
import type { ConnectionTarget } from './mcp-connection'
import type { RemoteAuth } from './oauth/remote-auth'
import { remoteTarget, type SecretSource } from './remote-transport'
import { sandboxMissing, type SandboxBackend } from './sandbox'
import { serverEnvironment } from './server-env'

/** What building a server's target needs of its supervisor. */
export interface TargetDeps {
  cwd: string
  appEnv: NodeJS.ProcessEnv
  secrets: SecretSource
  timeZone: string
  sandbox: SandboxBackend | null
}

/**
 * How a server is reached: its program (confined when it asks to be, never unconfined instead:
 * a missing sandbox throws) or its address with its headers and sign-in.
 */
export async function serverTarget(
  s: McpServerSettings,
  deps: TargetDeps,
  remoteAuth: RemoteAuth | null
): Promise<ConnectionTarget> {
  if (s.url !== undefined) {
    const auth = remoteAuth?.transportAuth()
    return { kind: 'remote', ...remoteTarget(s, deps.secrets), ...(auth ? { auth } : {}) }
  }
  // The settings check gives every server a command or a url.
  let command = s.command ?? ''
  let args = [...s.args]
  if (s.sandbox) {
    if (!deps.sandbox) throw new Error(sandboxMissing(s.name))
    ;({ command, args } = await deps.sandbox.wrap(
      { name: s.name, command, args, network: s.network },
      deps.cwd
    ))
  }
  const env = serverEnvironment(s, deps.appEnv, deps.timeZone)
  return { kind: 'stdio', command, args, env, cwd: deps.cwd }
}
