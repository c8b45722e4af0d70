import { lstatSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathDir, writeFileAtomicIn } from '../workspace/atomic-write'
import type { HostHooks } from '../host-hooks'
import { withFileLock } from './key-file-lock'

const FILE_NAME = 'provider-keys.json'

/** The key file cannot be trusted or read: said with the file's path and how to fix it. */
export class KeyFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'KeyFileError'
  }
}

/**
 * API keys typed into Settings in browser mode and the CLI, where there is no OS keychain: one
 * JSON file in the data directory that only its owner can read (mode 0600), never the settings
 * file. Fails closed: a file others could read, a link, or one owned by someone else is refused
 * with a sentence rather than trusted, since its keys may already be known or planted.
 */
export class KeyFile {
  /** Where the keys are kept, shown in Settings. */
  readonly path: string

  /** `fileName`: another file of the same kind (the MCP sign-ins keep theirs apart). */
  constructor(dataDir: string, fileName = FILE_NAME) {
    this.path = path.join(dataDir, fileName)
  }

  /** The key stored under `name`, or undefined; throws when the file is not safe to trust. */
  read(name: string): string | undefined {
    return this.load().get(name)
  }

  /** The names of the stored keys, sorted; never their values. */
  names(): string[] {
    return [...this.load().keys()].sort()
  }

  /** The file's permission bits, or null when there is no file yet; throws when it is not safe. */
  mode(): number | null {
    this.load()
    try {
      return lstatSync(this.path).mode & 0o777
    } catch {
      return null
    }
  }

  /**
   * Stores (or replaces) the key under `name`, keeping the file at mode 0600. Changes are made
   * one at a time across processes (see withFileLock), so keys stored at once all survive.
   */
  async store(name: string, value: string): Promise<void> {
    await this.change((keys) => {
      keys.set(name, value)
      return true
    })
  }

  /**
   * Replaces the value under `name` with what `edit` makes of the value stored now (undefined:
   * none), read and written under the file's lock, so changes made at once to one value are
   * applied one after the other; `edit` returning undefined removes it.
   */
  async update(
    name: string,
    edit: (stored: string | undefined) => string | undefined
  ): Promise<void> {
    await this.change((keys) => {
      const next = edit(keys.get(name))
      if (next === undefined) return keys.delete(name)
      keys.set(name, next)
      return true
    })
  }

  /** Removes the key under `name`; false when there was none. */
  async remove(name: string): Promise<boolean> {
    return this.change((keys) => keys.delete(name))
  }

  private async change(edit: (keys: Map<string, string>) => boolean): Promise<boolean> {
    // The refusal of an unsafe file comes before anything is created beside it.
    this.load()
    const dir = path.dirname(this.path)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    return withFileLock(this.path, async () => {
      // Read again under the lock: another process may have changed the file since.
      const keys = this.load()
      if (!edit(keys)) return false
      const content = JSON.stringify(Object.fromEntries(keys), null, 2)
      // Created at 0600 from the start: never a moment where the new key is readable by others.
      await writeFileAtomicIn(pathDir(dir), path.basename(this.path), content, 0o600)
      return true
    })
  }

  private load(): Map<string, string> {
    let info
    try {
      info = lstatSync(this.path)
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return new Map()
      throw new KeyFileError(`The key file ${this.path} could not be read: ${String(error)}.`, {
        cause: error
      })
    }
    if (!info.isFile()) {
      throw new KeyFileError(
        `The key file ${this.path} is not a plain file (a link or a folder); Mecatl refuses keys from it. Remove it and enter the key again (in Settings, or with mecatl keys set NAME).`
      )
    }
    if (process.platform !== 'win32') {
      const mode = info.mode & 0o777
      if (mode & 0o077) {
        throw new KeyFileError(
          `The key file ${this.path} can be read by others (mode 0${mode.toString(8)}); Mecatl refuses keys from it. Run chmod 600 ${this.path}, then replace the keys in it, since others may have read them.`
        )
      }
      const uid = process.getuid?.()
      if (uid !== undefined && info.uid !== uid) {
        throw new KeyFileError(
          `The key file ${this.path} belongs to another user (uid ${info.uid}); Mecatl refuses keys from it. Remove it and enter the key again (in Settings, or with mecatl keys set NAME).`
        )
      }
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(readFileSync(this.path, 'utf8'))
    } catch {
      throw new KeyFileError(
        `The key file ${this.path} could not be read as JSON; fix it or remove it and enter the key again (in Settings, or with mecatl keys set NAME).`
      )
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new KeyFileError(
        `The key file ${this.path} should hold an object of names to keys; fix it or remove it and enter the key again (in Settings, or with mecatl keys set NAME).`
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
