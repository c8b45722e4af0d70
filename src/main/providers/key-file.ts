import { lstatSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathDir, writeFileAtomicIn } from '../workspace/atomic-write'
import type { HostHooks } from '../workspace/workspace-handlers'

const FILE_NAME = 'provider-keys.json'

/**
 * API keys typed into Settings in browser mode and the CLI, where there is no OS keychain: one
 * JSON file in the data directory that only its owner can read (mode 0600), never the settings
 * file. Fails closed: a file others could read, a link, or one owned by someone else is refused
 * with a sentence rather than trusted, since its keys may already be known or planted.
 */
export class KeyFile {
  /** Where the keys are kept, shown in Settings. */
  readonly path: string

  constructor(dataDir: string) {
    this.path = path.join(dataDir, FILE_NAME)
  }

  /** The key stored under `name`, or undefined; throws when the file is not safe to trust. */
  read(name: string): string | undefined {
    return this.load().get(name)
  }

  /** Stores (or replaces) the key under `name`, keeping the file at mode 0600. */
  async store(name: string, value: string): Promise<void> {
    const keys = this.load()
    keys.set(name, value)
    mkdirSync(path.dirname(this.path), { recursive: true, mode: 0o700 })
    const content = JSON.stringify(Object.fromEntries(keys), null, 2)
    // Created at 0600 from the start: never a moment where the new key is readable by others.
    await writeFileAtomicIn(pathDir(path.dirname(this.path)), FILE_NAME, content, 0o600)
  }

  private load(): Map<string, string> {
    let info
    try {
      info = lstatSync(this.path)
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return new Map()
      throw new Error(`The key file ${this.path} could not be read: ${String(error)}.`, {
        cause: error
      })
    }
    if (!info.isFile()) {
      throw new Error(
        `The key file ${this.path} is not a plain file (a link or a folder); Mecatl refuses keys from it. Remove it and enter the key again in Settings.`
      )
    }
    if (process.platform !== 'win32') {
      const mode = info.mode & 0o777
      if (mode & 0o077) {
        throw new Error(
          `The key file ${this.path} can be read by others (mode 0${mode.toString(8)}); Mecatl refuses keys from it. Run chmod 600 ${this.path}, then replace the keys in it, since others may have read them.`
        )
      }
      const uid = process.getuid?.()
      if (uid !== undefined && info.uid !== uid) {
        throw new Error(
          `The key file ${this.path} belongs to another user (uid ${info.uid}); Mecatl refuses keys from it. Remove it and enter the key again in Settings.`
        )
      }
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'))
    } catch {
      throw new Error(
        `The key file ${this.path} could not be read as JSON; fix it or remove it and enter the key again in Settings.`
      )
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error(
        `The key file ${this.path} should hold an object of names to keys; fix it or remove it and enter the key again in Settings.`
      )
    }
    const keys = new Map<string, string>()
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') keys.set(name, value)
    }
    return keys
  }
}

/**
 * The host's hooks, with a key file in `dataDir` where the host keeps no keys of its own (browser
 * mode, the CLI); the desktop's safeStorage hooks are kept as they are.
 */
export function withKeyFile(hooks: HostHooks, dataDir: string): HostHooks {
  if (hooks.storeSecret) return hooks
  const file = new KeyFile(dataDir)
  return {
    ...hooks,
    storeSecret: (name, value) => file.store(name, value),
    readSecret: (name) => file.read(name),
    secretFile: file.path
  }
}
