import os from 'node:os'
import path from 'node:path'

/**
 * Where Mecatl keeps its settings and state: `MECATL_HOME` when set (tests, portable installs),
 * else the platform's per-user application data folder.
 */
export function dataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MECATL_HOME) return path.resolve(env.MECATL_HOME)
  const home = os.homedir()
  if (process.platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Mecatl')
  if (process.platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Mecatl')
  }
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Mecatl')
}
