import type { SettingsIssue } from '../../shared/settings'
import type { ProjectSettingsFiles } from './project-settings'
import { settingsBlocked, type SettingsSource, type SettingsStore } from './settings-store'

/** One settings file's state, as the window's banner and the CLI report it. */
export interface SettingsFileHealth {
  scope: 'user' | 'project'
  path: string
  issues: SettingsIssue[]
  source: SettingsSource
}

export interface SettingsHealth {
  /** A file is broken with nothing valid to fall back on: no turn may run. */
  blocked: boolean
  /** Only the files with problems. */
  files: SettingsFileHealth[]
}

/** Refused because a settings file is broken and has no valid copy: said so a person can fix it. */
export class SettingsBlockedError extends Error {
  constructor(readonly health: SettingsHealth) {
    super(blockedMessage(health))
    this.name = 'SettingsBlockedError'
  }
}

/**
 * The state of the settings that apply in `workspace` (the user's file, and the project's when a
 * folder is given). `reload` reads the files again first, as before every turn, so an edit made
 * in an editor applies (or is caught) from the next message.
 */
export async function settingsHealth(
  store: SettingsStore,
  projects: ProjectSettingsFiles,
  workspace: string | null,
  reload = false
): Promise<SettingsHealth> {
  const user = reload ? await store.load() : store.loaded()
  const files: SettingsFileHealth[] = []
  if (user.issues.length > 0) {
    files.push({ scope: 'user', path: user.path, issues: user.issues, source: user.source })
  }
  if (workspace) {
    const project = await projects.load(workspace)
    if (project.issues.length > 0) {
      files.push({
        scope: 'project',
        path: project.path,
        issues: project.issues,
        source: project.source
      })
    }
  }
  return { blocked: files.some((file) => settingsBlocked(file)), files }
}

/** Why nothing may run, naming each broken file and its first problem. */
export function blockedMessage(health: SettingsHealth): string {
  const broken = health.files.filter((file) => settingsBlocked(file))
  const parts = broken.map((file) => {
    const first = file.issues[0]
    const where = first?.line ? ` (line ${first.line})` : ''
    const count = file.issues.length === 1 ? 'a problem' : `${file.issues.length} problems`
    return `${file.path} has ${count}${first ? `, first${where}: ${first.path === '(file)' ? '' : `${first.path}: `}${first.message}` : ''}`
  })
  return `Nothing can run until the settings are fixed: ${parts.join('; ')}. There is no earlier valid copy to fall back on, so fix the file (Settings shows every problem).`
}
