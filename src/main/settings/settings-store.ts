import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import { settingsSchema, type Settings, type SettingsIssue } from '../../shared/settings'
import { describeIssues } from '../../shared/settings-issues'
import { writeFileAtomic } from '../workspace/atomic-write'
import { openSettingsFile, readSettingsFile, type SettingsFileRead } from './settings-file'

/**
 * Where the settings in force came from: the file; no file yet (the defaults, a first start);
 * the copy of the last valid file, because the file has problems; or nothing, because the file
 * has problems and no valid copy exists, in which case no turn may run (`settingsBlocked`).
 */
export type SettingsSource = 'file' | 'defaults' | 'last-valid' | 'none'

export interface LoadedSettings {
  path: string
  /** What the file holds, as parsed (even when invalid), so the settings screen can show it. */
  raw: unknown
  /** The settings in force (see `source`); with source `none`, defaults that must not run. */
  settings: Settings
  /** The file's problems, with line and column where the text shows them. */
  issues: SettingsIssue[]
  source: SettingsSource
  /** The copy of the last valid file, beside it. */
  lastValidPath: string
}

const defaults: Settings = settingsSchema.parse({})

/** True when the settings file is broken and there is nothing valid to fall back on. */
export function settingsBlocked(loaded: Pick<LoadedSettings, 'source'>): boolean {
  return loaded.source === 'none'
}

/** `settings.yaml` → `settings.last-valid.yaml`, in the same folder. */
export function lastValidPathFor(file: string): string {
  const stem = path.basename(file).replace(/\.ya?ml$/i, '')
  return path.join(path.dirname(file), `${stem}.last-valid.yaml`)
}

/**
 * The permission rules' own check, beyond the schema: a rule whose `match`/`not_match` examples
 * disagree with it is a mistake to stop on, not to run with. The gate owns the matching
 * (gate/rule-examples.ts); the settings files are given it, since they sit below the gate.
 */
export type RuleCheck = (rules: Settings['permissions']['rules']) => Promise<SettingsIssue[]>

/** Frozen all the way down: a snapshot that no reader can change under the others. */
export function frozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) frozen(inner)
  }
  return value
}

/**
 * The YAML settings file, failing closed. A file that does not validate (bad YAML, an unknown
 * key, a wrong type, a rule that fails its own examples) never makes the app fall back to the
 * defaults: a typo elsewhere in the file must not drop a forbid rule or `mode: read-only`. The
 * settings in force are then the copy of the last valid file kept beside it, and without one,
 * nothing runs until the file is fixed. A save keeps a backup of a broken file it replaces.
 */
export class SettingsStore {
  private current: LoadedSettings | null = null
  private inForce: string | null = null
  /** The text last copied to the last-valid file: it is loaded before every turn, copied on change. */
  private copied: string | null = null
  private readonly listeners = new Set<(settings: Settings) => void>()
  private readonly statusListeners = new Set<(loaded: LoadedSettings) => void>()
  readonly lastValidPath: string

  constructor(
    readonly filePath: string,
    private readonly checkRules: RuleCheck
  ) {
    this.lastValidPath = lastValidPathFor(filePath)
  }

  /**
   * Told whenever the settings in force change: for the few long-lived parts (MCP servers, the
   * sandbox) that must follow them. Everything else reads a snapshot when it starts its work.
   */
  onChange(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Told whenever the file's problems or the source of the settings change (the banner). */
  onStatus(listener: (loaded: LoadedSettings) => void): () => void {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
  }

  /**
   * Reads the file again (or takes it as `read` says it was just read and checked); the
   * settings in force follow it, its last valid copy, or nothing.
   */
  async load(read?: SettingsFileRead<Settings>): Promise<LoadedSettings> {
    read ??= await readSettingsFile(this.filePath, settingsSchema, this.check)
    if (read.kind === 'missing') return this.remember({}, defaults, [], 'defaults')
    if (read.kind === 'valid') {
      await this.keepCopy(read.text)
      return this.remember(read.raw, read.value, [], 'file')
    }
    const copy = await this.lastValid()
    if (copy) return this.remember(read.raw, copy, read.issues, 'last-valid')
    return this.remember(read.raw, defaults, read.issues, 'none')
  }

  /**
   * The settings in force, as last loaded: the one way main reads them. A turn takes one when it
   * starts and a request when it is answered; the object is frozen, so a snapshot never changes
   * under its reader (the next load makes a new one). The core loads them before anything asks.
   */
  snapshot(): Settings {
    return this.loaded().settings
  }

  /** The file as last loaded (its text as parsed, its problems, where the settings came from). */
  loaded(): LoadedSettings {
    if (!this.current) throw new Error('the settings were read before they were loaded')
    return this.current
  }

  async save(raw: unknown): Promise<{ saved: boolean; issues: SettingsIssue[] }> {
    const parsed = settingsSchema.safeParse(raw)
    if (!parsed.success) {
      return { saved: false, issues: describeIssues(parsed.error, settingsSchema) }
    }
    const wrongExamples = await this.check(parsed.data)
    if (wrongExamples.length > 0) return { saved: false, issues: wrongExamples }
    await mkdir(path.dirname(this.filePath), { recursive: true })
    const previous = this.current ?? (await this.load())
    if (previous.issues.length > 0) await this.backUp()
    const text = YAML.stringify(raw)
    await writeFileAtomic(this.filePath, text)
    await this.keepCopy(text)
    this.remember(raw, parsed.data, [], 'file')
    return { saved: true, issues: [] }
  }

  /**
   * A copy of the broken file a save is about to replace. Only a file is copied: a FIFO or a
   * link to nothing has no text to keep, and copying a FIFO would wait for a writer forever.
   */
  private async backUp(): Promise<void> {
    const opened = await openSettingsFile(this.filePath)
    if (opened.kind !== 'open') return
    try {
      await writeFile(`${this.filePath}.bak-${Date.now()}`, await opened.handle.readFile())
    } catch {
      // A backup that cannot be made does not stop the save the person asked for.
    } finally {
      await opened.handle.close()
    }
  }

  private async lastValid(): Promise<Settings | null> {
    const read: SettingsFileRead<Settings> = await readSettingsFile(
      this.lastValidPath,
      settingsSchema,
      this.check
    )
    return read.kind === 'valid' ? read.value : null
  }

  /**
   * A copy of a file that validated, for the day it does not. Failing to write it is no reason
   * to refuse settings that are valid.
   */
  private async keepCopy(text: string): Promise<void> {
    if (this.copied === text) return
    try {
      await writeFileAtomic(this.lastValidPath, text)
      this.copied = text
    } catch (error) {
      console.warn(
        `Mecatl: could not keep a copy of valid settings at ${this.lastValidPath}:`,
        error
      )
    }
  }

  private readonly check = (settings: Settings): Promise<SettingsIssue[]> =>
    this.checkRules(settings.permissions.rules)

  private remember(
    raw: unknown,
    settings: Settings,
    issues: SettingsIssue[],
    source: SettingsSource
  ): LoadedSettings {
    const before = this.current
    // Copies: the defaults and a caller's object stay theirs, and only the snapshot is frozen.
    this.current = frozen({
      path: this.filePath,
      raw: structuredClone(raw),
      settings: structuredClone(settings),
      issues,
      source,
      lastValidPath: this.lastValidPath
    })
    const inForce = JSON.stringify(settings)
    if (inForce !== this.inForce) {
      this.inForce = inForce
      for (const listener of this.listeners) listener(this.current.settings)
    }
    const status = JSON.stringify([source, issues])
    if (!before || status !== JSON.stringify([before.source, before.issues])) {
      for (const listener of this.statusListeners) listener(this.current)
    }
    return this.current
  }
}
