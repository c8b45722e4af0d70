import { mkdir, readFile, copyFile } from 'node:fs/promises'
import path from 'node:path'
import YAML from 'yaml'
import {
  describeIssues,
  settingsSchema,
  type Settings,
  type SettingsIssue
} from '../../shared/settings'
import { checkRuleExamples } from '../gate/rules'
import { writeFileAtomic } from '../workspace/atomic-write'

export interface LoadedSettings {
  path: string
  /** What the file holds, as parsed (even when invalid), so the settings screen can show it. */
  raw: unknown
  /** The settings in force: the file's when valid, else the defaults. */
  settings: Settings
  issues: SettingsIssue[]
}

const defaults: Settings = settingsSchema.parse({})

/** A rule whose own examples disagree with it is a mistake to stop on, not to run with. */
async function ruleExampleIssues(settings: Settings): Promise<SettingsIssue[]> {
  const problems = await checkRuleExamples(settings.permissions.rules)
  return problems.map((p) => ({ path: `permissions.rules.${p.index}`, message: p.message }))
}

/**
 * The YAML settings file. A malformed file is reported, never overwritten silently: the app
 * runs on defaults until the person fixes it, and a save keeps a backup of what was there.
 */
export class SettingsStore {
  private current: LoadedSettings | null = null
  private readonly listeners = new Set<(settings: Settings) => void>()

  constructor(readonly filePath: string) {}

  /** Told whenever settings are loaded or saved, so running parts (MCP servers) follow them. */
  onChange(listener: (settings: Settings) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  async load(): Promise<LoadedSettings> {
    let text: string
    try {
      text = await readFile(this.filePath, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        return this.remember({}, defaults, [
          { path: '(file)', message: `cannot read ${this.filePath}: ${String(error)}` }
        ])
      }
      return this.remember({}, defaults, [])
    }
    const document = YAML.parseDocument(text, { prettyErrors: true })
    if (document.errors.length > 0) {
      const issues = document.errors.map((error) => ({
        path: '(file)',
        message: `${path.basename(this.filePath)} is not valid YAML: ${error.message}`
      }))
      return this.remember(text, defaults, issues)
    }
    const raw: unknown = document.toJS() ?? {}
    const parsed = settingsSchema.safeParse(raw)
    if (!parsed.success) return this.remember(raw, defaults, describeIssues(parsed.error))
    const wrongExamples = await ruleExampleIssues(parsed.data)
    if (wrongExamples.length > 0) return this.remember(raw, defaults, wrongExamples)
    return this.remember(raw, parsed.data, [])
  }

  /** The settings last loaded (loading them first if needed). */
  async get(): Promise<LoadedSettings> {
    return this.current ?? this.load()
  }

  async save(raw: unknown): Promise<{ saved: boolean; issues: SettingsIssue[] }> {
    const parsed = settingsSchema.safeParse(raw)
    if (!parsed.success) return { saved: false, issues: describeIssues(parsed.error) }
    const wrongExamples = await ruleExampleIssues(parsed.data)
    if (wrongExamples.length > 0) return { saved: false, issues: wrongExamples }
    await mkdir(path.dirname(this.filePath), { recursive: true })
    const previous = await this.get()
    if (previous.issues.length > 0) {
      await copyFile(this.filePath, `${this.filePath}.bak-${Date.now()}`).catch(() => undefined)
    }
    await writeFileAtomic(this.filePath, YAML.stringify(raw))
    this.remember(raw, parsed.data, [])
    return { saved: true, issues: [] }
  }

  private remember(raw: unknown, settings: Settings, issues: SettingsIssue[]): LoadedSettings {
    this.current = { path: this.filePath, raw, settings, issues }
    for (const listener of this.listeners) listener(settings)
    return this.current
  }
}
