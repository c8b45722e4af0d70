import { lstatSync, readlinkSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** The data directory cannot be used as one: said so a person can fix it. */
export class DataDirError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DataDirError'
  }
}

/**
 * Where Mecatl keeps its settings and state: `MECATL_HOME` when set (tests, portable installs),
 * else the platform's per-user application data folder. It must be a folder, or not exist yet
 * (it is created): a file there is refused rather than written around.
 */
export function dataDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const dir = defaultDataDirectory(env)
  const named = env.MECATL_HOME ? `MECATL_HOME (${dir})` : dir
  let isFolder = true
  try {
    isFolder = statSync(dir).isDirectory()
  } catch {
    // Not there yet: created on first use. A link to nothing cannot be created through.
    if (isLink(dir)) {
      throw new DataDirError(
        `${named} is a link to ${readlinkSync(dir)}, which does not exist: create that folder, or point MECATL_HOME at another.`
      )
    }
  }
  if (!isFolder) {
    throw new DataDirError(
      `${named} is a file, not a folder: Mecatl keeps its settings and sessions in a folder there. Point MECATL_HOME at a folder (it is created if missing), or move the file away.`
    )
  }
  return dir
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}

function defaultDataDirectory(env: NodeJS.ProcessEnv): string {
  if (env.MECATL_HOME) return path.resolve(env.MECATL_HOME)
  const home = os.homedir()
  if (process.platform === 'darwin')
    return path.join(home, 'Library', 'Application Support', 'Mecatl')
  if (process.platform === 'win32') {
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Mecatl')
  }
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Mecatl')
}
