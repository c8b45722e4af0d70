import type { JSX } from 'react'
import { useCheckpointStatus } from './use-checkpoint-status'

/** In the chat's header when no checkpoints are taken: changes then cannot be rewound. */
export function CheckpointsOffBadge(): JSX.Element | null {
  const status = useCheckpointStatus()
  if (!status || status.on) return null
  return (
    <span
      className="badge badge--amber"
      data-testid="checkpoints-off"
      role="status"
      title={`No checkpoints are taken: ${status.why ?? ''}. Changes the agent makes cannot be rewound.`}
    >
      Checkpoints off
    </span>
  )
}
