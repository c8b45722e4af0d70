import { existsSync, realpathSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { HOME_DEFAULTS, SECRET_PATHS, type SandboxSettings } from '../../shared/sandbox'
import { repositoryView } from './git-dirs'
import { systemView, type SystemView } from './system-view'

/**
 * What a confined command may reach: the same policy for every backend. Built from what a
 * command needs, never from a list of what to hide: the system read-only, the project folder
 * writable with its `.git` read-only, of the home directory only the toolchains and caches
 * listed, no Unix socket but those passed in, and Mecatl's own files never.
 */
export interface ConfinementPolicy {
  /** The project folder: read-write. */
  workspace: string
  /** The machine's software, read-only (see system-view.ts). */
  system: SystemView
  /** The home directory: empty inside but for the entries below that lie in it; null if none. */
  home: string | null
  /** More read-write paths (the job's own TMPDIR among them). */
  writable: string[]
  /** Read-only: toolchains and caches of the home directory, and the person's additions. */
  readable: string[]
  /** Files shown read-only at `at` with the content of `from` (git settings without credentials). */
  files: { at: string; from: string }[]
  /**
   * Unreadable even inside the project folder or a readable path: credentials of the home
   * directory and `deny_read`. An entry a person made readable at the same path wins.
   */
  denyRead: string[]
  /** Unreadable whatever else says: Mecatl's data directory, its key files and settings. */
  own: string[]
  /** Read-only even inside the project folder: its repository's git folders (git-dirs.ts). */
  gitDirs: string[]
  /** Unix sockets passed through (an ssh-agent), each at its own path. */
  sockets: string[]
  /** Whether a command may make Unix sockets at all: only to reach those passed, or the proxy. */
  unixSockets: boolean
  /** off: none; on: all; proxy: only Mecatl's egress proxy (see sandbox/egress-proxy.ts). */
  network: 'off' | 'on' | ProxyNetwork
  /** Variables set inside, over the command's own (an MCP server's PATH). */
  env?: Record<string, string>
}

/** The allowlist's way out: the proxy's port, and (for bubblewrap) the bridge to it. */
export interface ProxyNetwork {
  proxyPort: number
  /** Bound into the sandbox: the proxy's unix socket and the bridge script. */
  socketDir?: string
  socketPath?: string
  bridgePath?: string
}

export interface PolicyInputs {
  workspace: string
  settings: SandboxSettings
  /** Mecatl's data directory: its database and keys are never the command's to read. */
  dataDir: string
  /** Mecatl's other files (a settings file kept elsewhere): never readable either. */
  ownFiles?: string[]
  /** The command's own temp directory. */
  tmp?: string
  home?: string
  /** Whose the command is: root's view of the system is narrowed (see system-view.ts). */
  uid?: number
  /** Where `$NAME` socket entries are read. */
  env?: Readonly<Record<string, string | undefined>>
  /** A person approved a git write for this command: its `.git` is writable. */
  gitWritable?: boolean
  /** The copy of a git settings file a command may see, or null to show none (git-config.ts). */
  gitConfigCopy?: (file: string) => string | null
}

/**
 * The policy of one confined command from the settings. Every path is absolute and resolved
 * through its links, so a denied folder reached by another name is still denied; a `~/` entry is
 * the home directory. A denied path that does not exist is kept as written, so creating it later
 * (inside the sandbox it cannot be) changes nothing.
 */
export function confinementPolicy(
  inputs: PolicyInputs,
  network: ConfinementPolicy['network']
): ConfinementPolicy {
  const home = inputs.home ?? os.homedir()
  const expand = (entry: string): string =>
    resolved(entry === '~' || entry.startsWith('~/') ? path.join(home, entry.slice(1)) : entry)
  const workspace = resolved(inputs.workspace)
  const project = inputs.settings.projects[workspace] ?? inputs.settings.projects[inputs.workspace]
  const shownHome = closedHome(home)
  const defaults = inputs.settings.home_defaults && shownHome ? homeDefaults(shownHome, inputs) : []
  const repository = repositoryView(workspace, shownHome)
  const sockets = socketPaths(inputs.settings.sockets, inputs.env ?? {}, expand)
  const paths = unique(sockets.map((s) => s.path))
  return {
    workspace,
    system: systemView(inputs.uid ?? process.getuid?.() ?? -1),
    home: shownHome,
    writable: unique(
      [
        ...(inputs.tmp ? [inputs.tmp] : []),
        ...inputs.settings.writable,
        ...(project?.writable ?? [])
      ].map(expand)
    ),
    readable: unique([
      ...defaults.flatMap((d) => ('readable' in d ? [d.readable] : [])),
      ...(repository.top ? [repository.top] : []),
      ...[...inputs.settings.readable, ...(project?.readable ?? [])].map(expand)
    ]),
    files: defaults.flatMap((d) => ('file' in d ? [d.file] : [])),
    denyRead: unique(
      [...SECRET_PATHS.map((p) => path.join(home, p)), ...inputs.settings.deny_read].map(expand)
    ),
    own: unique([inputs.dataDir, ...(inputs.ownFiles ?? [])].map(expand)),
    gitDirs: inputs.gitWritable ? [] : repository.gitDirs,
    sockets: paths,
    unixSockets: paths.length > 0 || typeof network === 'object',
    network,
    // `$SSH_AUTH_SOCK` passes the socket and the variable that names it.
    env: Object.fromEntries(sockets.flatMap((s) => (s.variable ? [[s.variable, s.path]] : [])))
  }
}

/**
 * The home directory to close, or null when it cannot be one (unset, `/`, or a system folder):
 * closing `/` would close the machine, and a system folder is shown read-only anyway.
 */
function closedHome(home: string): string | null {
  if (!home || !path.isAbsolute(home)) return null
  const at = resolved(home)
  if (at === '/') return null
  return at
}

type Shown = { readable: string } | { file: { at: string; from: string } }

/** The HOME_DEFAULTS entries that exist, git's settings as their copies without credentials. */
function homeDefaults(home: string, inputs: PolicyInputs): Shown[] {
  const shown: Shown[] = []
  for (const entry of HOME_DEFAULTS) {
    const at = path.join(home, entry.path)
    if (!existsSync(at)) continue
    if (!entry.filtered) {
      shown.push({ readable: resolved(at) })
      continue
    }
    const copy = inputs.gitConfigCopy?.(at) ?? null
    if (copy) shown.push({ file: { at, from: copy } })
  }
  return shown
}

/** The sockets listed that are there now: a path, or the path a `$NAME` variable holds. */
function socketPaths(
  entries: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  expand: (entry: string) => string
): { path: string; variable?: string }[] {
  const found: { path: string; variable?: string }[] = []
  for (const entry of entries) {
    const variable = entry.startsWith('$') ? entry.slice(1) : undefined
    const named = variable ? env[variable] : entry
    if (!named || !(named.startsWith('/') || named.startsWith('~/'))) continue
    // The socket at the path as the command will name it; the mount follows its links.
    const at = expand(named)
    try {
      if (statSync(at).isSocket()) found.push({ path: at, ...(variable ? { variable } : {}) })
    } catch {
      // Not there now (the agent is not running): nothing to pass.
    }
  }
  return found
}

/** An absolute path through its links when it exists; as written (made absolute) when not. */
export function resolved(entry: string): string {
  const absolute = path.resolve(entry)
  // .native: on macOS it also gives the name's case on disk, which seatbelt's rules match by.
  return existsSync(absolute) ? realpathSync.native(absolute) : absolute
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
