import path from 'node:path'
import { projectSettingsSchema, settingsSchema, type Settings } from '../../shared/settings'
import { projectSettingsPath } from '../settings/project-settings'
import { readSettingsFile, formatIssues, type SettingsFileRead } from '../settings/settings-file'
import { ruleExampleIssues } from '../gate/rule-examples'

/** Settings files that do not validate: the CLI stops on them (exit 2), never runs on defaults. */
export class SettingsInvalidError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SettingsInvalidError'
  }
}

/** The settings files a command would use, as checked: every problem, and the user's file as read. */
export interface SettingsChecked {
  /** Each file's problems, said for a person; null when both files are fine. */
  problems: string | null
  /** The user's file (or `--config`) as read, for the core to load rather than read again. */
  user: SettingsFileRead<Settings>
}

/**
 * Checks the settings files a command would use: the user's (or `--config`) and the project's
 * when it works in a folder. The CLI has no window to show a banner and no person to ask, so it
 * does not fall back on a last valid copy either: it lists every problem and stops.
 */
export async function checkSettings(
  userFile: string,
  projectFolder: string | null
): Promise<SettingsChecked> {
  const reports: string[] = []
  const user = await readSettingsFile(userFile, settingsSchema, (s) =>
    ruleExampleIssues(s.permissions.rules)
  )
  if (user.kind === 'invalid') reports.push(report(userFile, user.issues))
  if (projectFolder) {
    const file = projectSettingsPath(path.resolve(projectFolder))
    const project = await readSettingsFile(file, projectSettingsSchema, (s) =>
      ruleExampleIssues(s.permissions.rules)
    )
    if (project.kind === 'invalid') reports.push(report(file, project.issues))
  }
  return { problems: reports.length > 0 ? reports.join('\n') : null, user }
}

function report(file: string, issues: Parameters<typeof formatIssues>[1]): string {
  const count = issues.length === 1 ? 'a problem' : `${issues.length} problems`
  return `the settings file ${file} has ${count}, so nothing ran (Mecatl never runs on defaults in place of your settings):\n${formatIssues(file, issues)}`
}

/** Where a command finds the user's settings file. */
export function userSettingsFile(dataDir: string, config: string | undefined): string {
  return config ?? path.join(dataDir, 'settings.yaml')
}
