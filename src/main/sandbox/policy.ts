import { existsSync, realpathSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SECRET_PATHS, type SandboxSettings } from '../../shared/sandbox'

/** What a confined command may reach: the same policy for every backend. */
export interface ConfinementPolicy {
  /** The project folder: read-write. */
  workspace: string
  /** More read-write paths (the job's own TMPDIR among them). */
  writable: string[]
  /** Read-only even where a deny would apply: the person's explicit exceptions. */
  readable: string[]
  /** Unreadable: the person's secrets, Mecatl's data directory, `deny_read`. */
  denyRead: string[]
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
  /** The command's own temp directory. */
  tmp?: string
  home?: string
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
  const secrets = SECRET_PATHS.map((p) => path.join(home, p))
  return {
    workspace: resolved(inputs.workspace),
    writable: [...(inputs.tmp ? [inputs.tmp] : []), ...inputs.settings.writable].map(expand),
    readable: inputs.settings.readable.map(expand),
    denyRead: unique([...secrets, inputs.dataDir, ...inputs.settings.deny_read].map(expand)),
    network
  }
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
