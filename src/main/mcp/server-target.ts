import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'
import type { McpServerSettings } from '../../shared/mcp'
import { newJobToken } from '../jobs/job-marker'
import { findOnPath } from '../sandbox/backend'
import { pidNamespace } from '../sandbox/pid-namespace'
import type { ConnectionTarget, LocalTarget } from './mcp-connection'
import type { RemoteAuth } from './oauth/remote-auth'
import { remoteTarget, type SecretSource } from './remote-transport'
import { sandboxMissing, type SandboxBackend } from '../sandbox/sandboxed-server'
import { serverEnvironment } from './server-env'

/** What building a server's target needs of its supervisor. */
export interface TargetDeps {
  cwd: string
  appEnv: NodeJS.ProcessEnv
  secrets: SecretSource
  timeZone: string
  /**
   * The variables Mecatl reads its own keys from: a sandboxed server never gets one, whatever its
   * `env_passthrough` says (a project's settings cannot be checked against the providers).
   */
  mecatlKeys?: () => Promise<ReadonlySet<string>>
  sandbox: SandboxBackend | null
  /**
   * false: an unsandboxed server never gets a PID namespace of its own, and only its marker ends
   * what it started (tests of that way); unset or true: a namespace wherever one can be made.
   */
  pidNamespace?: boolean
}

/**
 * How a server is reached: its program (confined when it asks to be, never unconfined instead:
 * a missing sandbox throws) or its address with its headers and sign-in. A program gets a marker
 * token of its own, and runs in a PID namespace of its own where one can be made (the sandbox
 * always makes one), so that everything it starts ends with it (see server-tree.ts).
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
  const token = newJobToken()
  const never = s.sandbox ? ((await deps.mecatlKeys?.()) ?? new Set<string>()) : new Set<string>()
  const env = serverEnvironment(s, deps.appEnv, deps.timeZone, token, never)
  // The settings check gives every server a command or a url.
  const command = s.command ?? ''
  if (s.sandbox) {
    if (!deps.sandbox) throw new Error(sandboxMissing(s.name))
    const confined = await deps.sandbox.wrap(
      { name: s.name, command, args: s.args, network: s.network },
      deps.cwd
    )
    // bubblewrap gives it a PID namespace of its own already (seatbelt does not: then only the
    // marker finds its processes).
    return {
      kind: 'stdio',
      ...confined,
      label: command,
      env,
      cwd: deps.cwd,
      token,
      namespaced: true,
      note: null
    }
  }
  const own = await ownNamespace(command, s.args, env, deps)
  return { kind: 'stdio', ...own, label: command, token }
}

/**
 * The command in a PID namespace of its own, or as it is with the reason, for the server's log.
 * A command that cannot be run is left as it is, so that starting it fails with its own error.
 */
async function ownNamespace(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  deps: TargetDeps
): Promise<Omit<LocalTarget, 'token' | 'label'>> {
  const bare = { command, args: [...args], env, cwd: deps.cwd, namespaced: false }
  const fallback = (why: string): string =>
    `runs without a PID namespace of its own (${why}); what it starts is ended by the marker in its environment`
  if (deps.pidNamespace === false) return { ...bare, note: fallback('switched off') }
  const namespace = await pidNamespace(deps.appEnv)
  if (!namespace.usable) return { ...bare, note: fallback(namespace.why) }
  if (!runnable(command, env.PATH, deps.cwd)) return { ...bare, note: null }
  return { ...bare, ...namespace.wrap(command, args, deps.cwd), namespaced: true, note: null }
}

/** Whether `command` names a program file, as spawning it in `cwd` with this PATH would find. */
function runnable(command: string, PATH: string | undefined, cwd: string): boolean {
  const file = command.includes('/') ? path.resolve(cwd, command) : findOnPath(command, { PATH })
  if (file === null) return false
  try {
    accessSync(file, constants.X_OK)
    return statSync(file).isFile()
  } catch {
    return false
  }
}
