/**
 * What only the host (Electron, browser mode) can do for the core; absent hooks mean "not here".
 * The hosts fill it in; the core's features call it.
 */
export interface HostHooks {
  pickFolder?: () => Promise<string | null>
  /** Opens (or focuses) the folder's own window; true when it was already open elsewhere. */
  openWorkspace?: (folder: string, caller: string) => Promise<boolean>
  storeSecret?: (name: string, value: string) => Promise<void>
  readSecret?: (name: string) => string | undefined
  /** The file stored keys are kept in (mode 0600) where no OS keychain keeps them. */
  secretFile?: string
  /**
   * Shows a desktop notification for the caller's window; `clicked` runs when the person clicks
   * it. Resolves false where the host shows none.
   */
  notify?: (
    notice: { title: string; body: string; tag: string },
    caller: string,
    clicked: () => void
  ) => Promise<boolean>
}
