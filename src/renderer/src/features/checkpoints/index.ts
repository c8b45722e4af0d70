// Checkpoints as the rest of the window sees them: what a tool call's card, a message and the
// transcript offer to restore, the dialog that does it, the Settings section, and the message a
// rewind offers back.
export { CallFilesView } from './call-files'
export { CheckpointsOffBadge } from './checkpoints-off-badge'
export { CheckpointsSection } from './checkpoints-section'
export { RestoreDialog } from './restore-dialog'
export { RestoreDivider } from './restore-divider'
export { RewindButton } from './rewind-button'
export { dropDraft, offeredDraft } from './draft-handoff'
