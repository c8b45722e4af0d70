import { useEffect, useState } from 'react'
import { call } from '../../bridge/client'
import { useSettingsView } from '../settings'

import type { SandboxStatusView } from './sandbox-model'

/** Where Shell stands, asked again whenever the settings are saved. Null until it answers. */
export function useSandboxStatus(): SandboxStatusView | null {
  const savedAt = useSettingsView((s) => s.savedAt)
  const [status, setStatus] = useState<SandboxStatusView | null>(null)
  useEffect(() => {
    let live = true
    call('sandbox.status', {}).then(
      (answer) => live && setStatus(answer),
      () => live && setStatus(null)
    )
    return () => {
      live = false
    }
  }, [savedAt])
  return status
}
