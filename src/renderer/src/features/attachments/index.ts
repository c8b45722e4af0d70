// Attachments as the rest of the window sees them: what the composer attaches with, and the
// chips a sent message shows.
export { AttachmentChips } from './attachment-chips'
export { useAttachmentsUi, type ComposerAttach } from './composer-attach'
