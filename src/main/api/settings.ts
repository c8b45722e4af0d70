import type { SliceHandlers } from '../../shared/contract/handlers'
import type { SettingsIssue } from '../../shared/settings'
import type { Services } from '../core'
import { settingsHealth } from '../settings/settings-health'
import { checkFolder } from '../workspace/check-folder'

/** The settings file as the window edits it, and the health of every file in force. */
export function settingsApi({
  settings,
  projectSettings
}: Pick<Services, 'settings' | 'projectSettings'>): SliceHandlers<'settings'> {
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
