import { RpcError } from '../../shared/contract'
import type { Handlers } from '../../shared/contract/handlers'
import { version } from '../version'
import { checkFolder } from './check-folder'
import type { RecentFolders } from './recent-folders'
import type { WorkspaceTrust } from './workspace-trust'

/** What only the host (Electron, browser mode) can do; absent hooks mean "not here". */
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

export interface WorkspaceHandlerDeps {
  host: 'electron' | 'browser' | 'cli'
  dataDir: string
  /** The folder this process was started for, if any. */
  workspace: string | null
  hooks: HostHooks
  recent: RecentFolders
  trust: WorkspaceTrust
  /** Told when the person stops trusting a folder, so its open sessions follow at once. */
  sessions: { distrustFolder(workspace: string): void }
}

type WorkspaceCall =
  'app.info' | 'workspace.recent' | 'workspace.open' | 'workspace.setTrust' | 'workspace.pickFolder'

/** Where the app runs and which folders it opens. */
export function workspaceHandlers(deps: WorkspaceHandlerDeps): Pick<Handlers, WorkspaceCall> {
  const { hooks } = deps
  return {
    'app.info': async () => ({
      mode: deps.host,
      version,
      dataDir: deps.dataDir,
      canPickFolder: Boolean(hooks.pickFolder),
      canStoreSecrets: Boolean(hooks.storeSecret),
      keyFile: hooks.secretFile ?? null,
      workspace: deps.workspace
    }),
    'workspace.recent': async () => ({ folders: await deps.recent.list() }),
    'workspace.open': async ({ path: requested }, ctx) => {
      const folder = await checkFolder(requested)
      // Asked before the folder joins the recent list: the first look migrates that list, and a
      // folder first opened now must not count as one opened before trust was asked.
      const trust = await deps.trust.get(folder)
      await deps.recent.add(folder)
      const openedElsewhere = (await hooks.openWorkspace?.(folder, ctx.caller)) ?? false
      return { path: folder, openedElsewhere, trust }
    },
    'workspace.setTrust': async ({ path: requested, trust }) => {
      const folder = await checkFolder(requested)
      await deps.trust.set(folder, trust)
      if (trust === 'untrusted') deps.sessions.distrustFolder(folder)
      return { path: folder, trust: await deps.trust.get(folder) }
    },
    'workspace.pickFolder': async () => {
      if (!hooks.pickFolder) {
        throw new RpcError('unsupported', 'choosing a folder needs the desktop app; type its path')
      }
      return { path: await hooks.pickFolder() }
    }
  }
}
