import { loadModels } from '../chat'
import { showServerIssues, discardServerForm, reloadAfterSave } from '../mcp'
import { discardRuleChanges, saveAndReloadRules } from '../permissions'
import { loadSettings, saveSettings, settingsNow } from '../settings'

/**
 * The Save bar: writes every section's draft in one `settings.save` (one validation of the whole
 * file), then the project and session rule changes, which live outside it. A refused save keeps
 * every edit and puts the reasons beside their fields. Resolves true when everything was written.
 */
export async function saveEverything(): Promise<boolean> {
  if (!(await saveSettings())) {
    showServerIssues(settingsNow().saveIssues)
    return false
  }
  void loadModels()
  void reloadAfterSave()
  return saveAndReloadRules()
}

/** Discard: every section back to the settings as they are on disk (a previewed theme too). */
export async function discardEverything(): Promise<void> {
  discardRuleChanges()
  discardServerForm()
  await loadSettings()
}
