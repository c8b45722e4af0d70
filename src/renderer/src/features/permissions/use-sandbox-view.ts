import { useEffect, useState } from 'react'
import type { SandboxView } from '../../../../shared/sandbox'
import { call } from '../../bridge/client'
import { useSettingsView } from '../settings'

/** What `sandbox.view` answered, or why it did not; null until the first answer. */
export type SandboxViewAnswer = { view: SandboxView } | { error: string } | null

/**
 * What a confined command in `workspace` (or in no project folder) sees under the settings in
 * force, asked again whenever the settings are saved or the folder changes.
 */
export function useSandboxView(workspace: string | null): SandboxViewAnswer {
  const savedAt = useSettingsView((s) => s.savedAt)
  const [answer, setAnswer] = useState<SandboxViewAnswer>(null)
  useEffect(() => {
    let live = true
    call('sandbox.view', workspace ? { workspace } : {}).then(
      (view) => live && setAnswer({ view }),
      (error: unknown) =>
        live && setAnswer({ error: error instanceof Error ? error.message : String(error) })
    )
    return () => {
      live = false
    }
  }, [savedAt, workspace])
  return answer
}
