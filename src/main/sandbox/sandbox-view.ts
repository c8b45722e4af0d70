import { existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { COMMAND_ENV_NAMES, mecatlKeyNames } from '../../shared/command-env'
import { HOME_DEFAULTS, type SandboxView } from '../../shared/sandbox'
import type { Settings } from '../../shared/settings'
import { confinementPolicy, resolved, type PolicyInputs } from './policy'
import { describeSandbox, type SandboxStatus } from './sandbox-status'

/**
 * What a confined command sees under `settings`, for a person: the policy a command in
 * `workspace` would get (or one with no project folder), said folder by folder.
 */
export function sandboxView(
  settings: Settings,
  status: SandboxStatus,
  inputs: Omit<PolicyInputs, 'workspace' | 'settings'>,
  workspace: string | null
): SandboxView {
  const home = inputs.home ?? os.homedir()
  const policy = confinementPolicy(
    { ...inputs, workspace: workspace ?? home, settings: settings.sandbox },
    settings.sandbox.network === 'allowlist' ? { proxyPort: 0 } : settings.sandbox.network
  )
  const expand = (entry: string): string =>
    resolved(entry === '~' || entry.startsWith('~/') ? path.join(home, entry.slice(1)) : entry)
  const project = workspace ? settings.sandbox.projects[resolved(workspace)] : undefined
  const listedSockets = settings.sandbox.sockets.map((entry) => {
    const named = entry.startsWith('$') ? (inputs.env?.[entry.slice(1)] ?? null) : entry
    const at = named ? expand(named) : null
    return { entry, path: at && policy.sockets.includes(at) ? at : null }
  })
  return {
    state: status.state,
    text: describeSandbox(status),
    asRoot: inputs.uid === 0,
    system: [...policy.system.dirs, ...policy.system.links.map((l) => l.at)].sort(),
    hiddenForRoot: policy.system.hidden.length,
    home: policy.home,
    homeDefaults: HOME_DEFAULTS.map((entry) => ({
      path: `~/${entry.path}`,
      why: entry.why,
      present: settings.sandbox.home_defaults && existsSync(path.join(home, entry.path)),
      filtered: entry.filtered === true
    })),
    workspace: workspace ? resolved(workspace) : null,
    gitReadOnly: workspace ? policy.gitDirs : [],
    readable: settings.sandbox.readable.map(expand),
    writable: settings.sandbox.writable.map(expand),
    project: project
      ? { readable: project.readable.map(expand), writable: project.writable.map(expand) }
      : null,
    sockets: listedSockets,
    unixSockets: policy.sockets.length > 0 || settings.sandbox.network === 'allowlist',
    network: settings.sandbox.network,
    env: {
      fixed: [...COMMAND_ENV_NAMES, 'LC_*', 'TERM', 'TMPDIR'],
      listed: [...settings.shell.env_passthrough],
      never: [...mecatlKeyNames(settings)].sort()
    }
  }
}
