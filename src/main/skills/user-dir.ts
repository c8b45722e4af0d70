import os from 'node:os'
import path from 'node:path'

/**
 * The person's own Mecatl folder for instructions, skills and commands: `MECATL_HOME` when set
 * (tests, portable installs), else `~/.config/mecatl`.
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MECATL_HOME) return path.resolve(env.MECATL_HOME)
  return path.join(os.homedir(), '.config', 'mecatl')
}
