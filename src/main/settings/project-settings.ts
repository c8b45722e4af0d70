import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import {
  projectSettingsSchema,
  type ProjectSettings,
  type SettingsIssue
} from '../../shared/settings'
import { writeFileAtomic } from '../workspace/atomic-write'
import { readSettingsFile } from './settings-file'
import type { RuleCheck, SettingsSource } from './settings-store'

export interface LoadedProjectSettings {
  path: string
  exists: boolean
  /** The settings in force: the file's when valid, else its last valid copy, else none. */
  settings: ProjectSettings
  /** The file's own problems. */
  issues: SettingsIssue[]
  source: SettingsSource
}

const empty: ProjectSettings = { mcp: [], permissions: { rules: [] } }

/** Where a project keeps its own settings. */
export function projectSettingsPath(workspace: string): string {
  return path.join(workspace, '.mecatl', 'settings.yaml')
}

/**
 * `<project>/.mecatl/settings.yaml`, validated with the project schema and failing closed like
 * the user's file: a malformed one is never half applied and never ignored (that would drop the
 * project's forbid rules). Its last valid copy is kept in the data directory, not in the project
 * folder (where it would show up in the person's `git status`), and used while the file is
 * broken; without one, the project runs no turn until the file is fixed.
 */
export class ProjectSettingsFiles {
  private readonly lastStatus = new Map<string, string>()
  /** The text last copied per project: the file is read for every call, copied only on change. */
  private readonly copied = new Map<string, string>()

  constructor(
    /** `<dataDir>/project-settings`; null keeps no copies (a read-only look, tests). */
    private readonly copiesDir: string | null,
    /** The permission rules' own check (their examples), as the user's file has it. */
    private readonly checkRules: RuleCheck,
    /** Told when a project's file changes between valid and not (the window's banner). */
    private readonly onStatus?: (workspace: string, loaded: LoadedProjectSettings) => void
  ) {}

  private readonly check = (settings: ProjectSettings): Promise<SettingsIssue[]> =>
    this.checkRules(settings.permissions.rules)

  async load(workspace: string): Promise<LoadedProjectSettings> {
    const file = projectSettingsPath(workspace)
    const read = await readSettingsFile(file, projectSettingsSchema, this.check)
    let loaded: LoadedProjectSettings
    if (read.kind === 'missing') {
      loaded = { path: file, exists: false, settings: empty, issues: [], source: 'defaults' }
    } else if (read.kind === 'valid') {
      await this.keepCopy(workspace, read.text)
      loaded = { path: file, exists: true, settings: read.value, issues: [], source: 'file' }
    } else {
      const copy = await this.lastValid(workspace)
      loaded = copy
        ? { path: file, exists: true, settings: copy, issues: read.issues, source: 'last-valid' }
        : { path: file, exists: true, settings: empty, issues: read.issues, source: 'none' }
    }
    const status = JSON.stringify([loaded.source, loaded.issues])
    if (this.lastStatus.get(workspace) !== status) {
      const known = this.lastStatus.has(workspace)
      this.lastStatus.set(workspace, status)
      if (known || loaded.issues.length > 0) this.onStatus?.(workspace, loaded)
    }
    return loaded
  }

  private copyPath(workspace: string): string | null {
    if (!this.copiesDir) return null
    const key = createHash('sha256').update(workspace).digest('hex').slice(0, 24)
    return path.join(this.copiesDir, `${key}.yaml`)
  }

  private async lastValid(workspace: string): Promise<ProjectSettings | null> {
    const copy = this.copyPath(workspace)
    if (!copy) return null
    const read = await readSettingsFile(copy, projectSettingsSchema, this.check)
    return read.kind === 'valid' ? read.value : null
  }

  private async keepCopy(workspace: string, text: string): Promise<void> {
    const copy = this.copyPath(workspace)
    if (!copy || this.copied.get(workspace) === text) return
    try {
      await mkdir(path.dirname(copy), { recursive: true })
      await writeFileAtomic(copy, text)
      this.copied.set(workspace, text)
    } catch (error) {
      console.warn(`Mecatl: could not keep a copy of ${projectSettingsPath(workspace)}:`, error)
    }
  }
}
