// Checkpoints as the rest of the window sees them: what a tool call's card, a message and the
// transcript offer to restore, the dialog that does it, the Settings section, and the message a
// rewind offers back.
import { lazySection } from '../../ui/lazy-section'
export { CallFilesView } from './call-files'
export { CheckpointsOffBadge } from './checkpoints-off-badge'
export { RestoreDialog } from './restore-dialog'
export { RestoreDivider } from './restore-divider'
export { RewindButton } from './rewind-button'
export { dropDraft, offeredDraft } from './draft-handoff'

// Its section of Settings loads with the Settings page, not with the window (ui/lazy-section.tsx).
export const CheckpointsSection = lazySection(() =>
  import('./checkpoints-section').then((module) => module.CheckpointsSection)
)
