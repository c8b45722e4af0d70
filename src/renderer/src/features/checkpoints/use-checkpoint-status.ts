import { useEffect, useState } from 'react'
import type { CheckpointStatus } from '../../../../shared/checkpoints'
import { call } from '../../bridge/client'
import { useWorkspace } from '../sessions'
import { useSettingsView } from '../settings'

/** Whether the open folder is checkpointed, asked again whenever the settings are saved. */
export function useCheckpointStatus(): CheckpointStatus | null {
  const savedAt = useSettingsView((s) => s.savedAt)
  const folder = useWorkspace()
  const [status, setStatus] = useState<CheckpointStatus | null>(null)
  useEffect(() => {
    if (!folder) return
    let live = true
    call('checkpoints.status', { workspace: folder }).then(
      (answer) => live && setStatus(answer),
      () => live && setStatus(null)
    )
    return () => {
      live = false
    }
  }, [savedAt, folder])
  return folder ? status : null
}
