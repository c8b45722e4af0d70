import { editSetting, fileOf, sameValue, useSettingsFile, useSettingsView } from '../settings'
import { sandboxOf, shellOf, type RawSandbox, type RawShell } from './sandbox-model'

/** The sandbox's part of the settings draft, and the one way Settings → Sandbox changes it. */
export interface SandboxDraft {
  sandbox: RawSandbox
  shell: RawShell
  setSandbox: (next: RawSandbox) => void
  setShell: (next: RawShell) => void
  /** The draft differs from the file: what commands see now is the file's. */
  pending: boolean
  /** The file's `sandbox` entry, which the settings in force were read from. */
  saved: RawSandbox
}

export function useSandboxDraft(): SandboxDraft {
  const file = useSettingsFile()
  const saved = useSettingsView((s) => fileOf(s.saved.draft))
  return {
    sandbox: sandboxOf(file),
    shell: shellOf(file),
    setSandbox: (next) => editSetting('sandbox', next),
    setShell: (next) => editSetting('shell', next),
    pending: !sameValue(file.sandbox, saved.sandbox) || !sameValue(file.shell, saved.shell),
    saved: sandboxOf(saved)
  }
}
