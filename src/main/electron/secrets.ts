import { safeStorage } from 'electron'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../workspace/atomic-write'

/**
 * API keys kept with Electron's safeStorage (the OS keychain encrypts them), in a file of their
 * own in the data directory: never in the settings file.
 */
export class SecretStore {
  private readonly file: string
  private readonly encrypted = new Map<string, string>()

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'secrets.json')
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'))
      for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
        if (typeof value === 'string') this.encrypted.set(name, value)
      }
    } catch {
      // No stored secrets yet.
    }
  }

  available(): boolean {
    return safeStorage.isEncryptionAvailable()
  }

  async store(name: string, value: string): Promise<void> {
    if (!this.available()) {
      throw new Error('this system offers no secure storage; name an environment variable instead')
    }
    this.encrypted.set(name, safeStorage.encryptString(value).toString('base64'))
    mkdirSync(path.dirname(this.file), { recursive: true })
    await writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.encrypted), null, 2))
  }

  read(name: string): string | undefined {
    const value = this.encrypted.get(name)
    if (!value || !this.available()) return undefined
    try {
      return safeStorage.decryptString(Buffer.from(value, 'base64'))
    } catch {
      return undefined
    }
  }
}
