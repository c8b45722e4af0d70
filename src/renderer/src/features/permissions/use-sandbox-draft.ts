import { sameValue } from '../settings/settings-model'
import { useSettings } from '../settings/settings-store'
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
  const base = useSettings((s) => s.state.base)
  const saved = useSettings((s) => s.state.saved)
  const dispatch = useSettings((s) => s.dispatch)
  return {
    sandbox: sandboxOf(base),
    shell: shellOf(base),
    setSandbox: (next) => dispatch({ type: 'base-set', key: 'sandbox', value: next }),
    setShell: (next) => dispatch({ type: 'base-set', key: 'shell', value: next }),
    pending: !sameValue(base.sandbox, saved.sandbox) || !sameValue(base.shell, saved.shell),
    saved: sandboxOf(saved)
  }
}
