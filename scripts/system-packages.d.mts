import type { SpawnSyncReturns } from 'node:child_process'

/** A system package the suite needs: found by `program` on PATH, or at `path`. */
export interface RequiredPackage {
  name: string
  for: string
  program?: string
  path?: string
  /** False for a Chromium named by MECATL_CHROMIUM: apt cannot put it there. */
  installable: boolean
}

export type Env = Record<string, string | undefined>

export interface Installer {
  root: boolean
  apt: boolean
}

export type Outcome = { ok: true; installed: string[] } | { ok: false; detail: string }

export function requiredPackages(env?: Env, debianChromium?: string): RequiredPackage[]
export function missingPackages(env?: Env, debianChromium?: string): RequiredPackage[]
export function installer(env?: Env): Installer
export function installCommand(names: readonly string[], how?: Installer): string
export function ensureSystemPackages(options?: {
  env?: Env
  log?: (line: string) => void
  run?: (
    command: string,
    args: readonly string[],
    options: { env: Env; encoding: 'utf8' }
  ) => Pick<SpawnSyncReturns<string>, 'status' | 'stdout' | 'stderr' | 'error'>
  how?: Installer
  /** Where apt's chromium package puts the browser (a test points it at its own folder). */
  debianChromium?: string
}): Outcome
