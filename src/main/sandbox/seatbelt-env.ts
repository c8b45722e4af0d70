import type { ConfinementPolicy } from './policy'

/**
 * The system's env, by full path for the reason sandbox-exec is: a project cannot put its own
 * in the way.
 */
export const ENV_PROGRAM = '/usr/bin/env'

/** What seatbelt changes in a confined command's environment, over the command's own. */
export interface SeatbeltEnv {
  set: Record<string, string>
  unset: string[]
}

/** A variable name env(1) sets as written: not empty, no `=`, not taken for an option. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The variables a command confined by seatbelt is given: the policy's own (an MCP server's PATH,
 * the caches in its TMPDIR, `SSH_AUTH_SOCK`), git's settings, and the proxy's address.
 *
 * Seatbelt cannot show one file at another's path as bubblewrap does, so the person's
 * `~/.gitconfig` stays unreadable and git is pointed at its copy without credentials with
 * GIT_CONFIG_GLOBAL. With the home directory closed and no copy, that is /dev/null: git dies on
 * a settings file it may not read (EPERM), where inside bubblewrap it finds none.
 * GIT_CONFIG_GLOBAL names one file: when both `~/.gitconfig` and `~/.config/git/config` have
 * copies it names the first's, which git reads last and so lets win outside too; the second's
 * settings are then not seen.
 */
export function seatbeltEnv(policy: ConfinementPolicy): SeatbeltEnv {
  const git = gitConfig(policy)
  const proxy = typeof policy.network === 'object' ? policy.network : null
  const url = proxy ? `http://127.0.0.1:${proxy.proxyPort}` : null
  return {
    set: {
      ...(git ? { GIT_CONFIG_GLOBAL: git } : {}),
      ...policy.env,
      ...(url ? { HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url } : {})
    },
    // A NO_PROXY of the person's would send those hosts around the proxy, where nothing gets.
    unset: proxy ? ['NO_PROXY', 'no_proxy'] : []
  }
}

function gitConfig(policy: ConfinementPolicy): string | null {
  const named = (tail: string): string | undefined =>
    policy.files.find((f) => f.at.endsWith(tail))?.from
  const copy = named('/.gitconfig') ?? named('/.config/git/config')
  if (copy) return copy
  return policy.home ? '/dev/null' : null
}

/**
 * `/usr/bin/env -u NAME… -- NAME=value…` to run before `file`, or nothing when there is nothing
 * to change. env execs the command in its own place, as sandbox-exec does, so the pid and the
 * process group stay the command's.
 */
export function envPrefix(
  env: SeatbeltEnv,
  file: string,
  refuse: (why: string) => never
): string[] {
  const entries = Object.entries(env.set)
  if (entries.length === 0 && env.unset.length === 0) return []
  for (const name of [...entries.map(([n]) => n), ...env.unset]) {
    if (!NAME.test(name)) refuse(`the variable name ${JSON.stringify(name)} is not one env can set`)
  }
  for (const [name, value] of entries) {
    if (value.includes('\0')) refuse(`the value of ${name} contains a NUL`)
  }
  // env takes every leading word with an `=` for a variable, the command's name included.
  if (file.includes('=')) {
    refuse(
      `the command ${JSON.stringify(file)} has an "=" in its name, which env would take for a variable; rename it or run it through a shell`
    )
  }
  return [
    ENV_PROGRAM,
    ...env.unset.flatMap((name) => ['-u', name]),
    '--',
    ...entries.map(([name, value]) => `${name}=${value}`)
  ]
}
