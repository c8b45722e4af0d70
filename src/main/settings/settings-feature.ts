import path from 'node:path'
import type { EventHub } from '../events/event-hub'
import type { Feature } from '../feature'
import type { Settings } from '../../shared/settings'
import { ProjectSettingsFiles } from './project-settings'
import type { SettingsFileRead } from './settings-file'
import { SettingsStore, type RuleCheck } from './settings-store'

export interface SettingsNeeds {
  options: { dataDir: string; configPath?: string; settingsRead?: SettingsFileRead<Settings> }
  hub: EventHub
  checkRules: RuleCheck
}

export interface SettingsProvides {
  settings: SettingsStore
  /** The projects' own settings files, with their last valid copies. */
  projectSettings: ProjectSettingsFiles
}

/** The user's settings file (or `--config`) and the projects' files, loaded before anything reads them. */
export const settingsFeature: Feature<SettingsNeeds, SettingsProvides> = {
  name: 'settings',
  async start({ options, hub, checkRules }) {
    const settings = new SettingsStore(
      options.configPath ?? path.join(options.dataDir, 'settings.yaml'),
      checkRules
    )
    // The window's banner follows both files; a broken one never means running on defaults.
    settings.onStatus(() => hub.emit('settings.status', { workspace: null }))
    const projectSettings = new ProjectSettingsFiles(
      path.join(options.dataDir, 'project-settings'),
      checkRules,
      (workspace) => hub.emit('settings.status', { workspace })
    )
    await settings.load(options.settingsRead)
    return { provides: { settings, projectSettings } }
  }
}
