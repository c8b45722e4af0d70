// Folder trust as the rest of the window sees it: the question asked when a folder first opens,
// its dialog, and the chip that shows and changes it.
export { FolderTrustChip } from './folder-trust-chip'
export { TrustDialog } from './trust-dialog'
export { folderOpened } from './trust-store'
