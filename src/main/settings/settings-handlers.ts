import type { Handlers } from '../../shared/contract/handlers'
import type { SettingsIssue } from '../../shared/settings'
import { checkFolder } from '../workspace/check-folder'
import type { ProjectSettingsFiles } from './project-settings'
import { settingsHealth } from './settings-health'
import type { SettingsStore } from './settings-store'

type SettingsCall = 'settings.get' | 'settings.save' | 'settings.status'

/** The settings file as the window edits it, and the health of every file in force. */
export function settingsHandlers(
  settings: SettingsStore,
  projectSettings: ProjectSettingsFiles
): Pick<Handlers, SettingsCall> {
  return {
    'settings.get': async () => {
      const loaded = await settings.load()
      return { path: loaded.path, settings: loaded.raw, issues: loaded.issues }
    },
    'settings.save': async ({ settings: raw }) => settings.save(raw),
    'settings.status': async ({ workspace }) => {
      const folder = workspace ? await checkFolder(workspace) : null
      const health = await settingsHealth(settings, projectSettings, folder, true)
      return {
        blocked: health.blocked,
        files: health.files.map((file) => ({ ...file, issues: file.issues.map(shownIssue) }))
      }
    }
  }
}

/** An issue as the window shows it (its path segments stay in the main process). */
function shownIssue(issue: SettingsIssue): SettingsIssue {
  const { segments: _segments, ...shown } = issue
  void _segments
  return shown
}
