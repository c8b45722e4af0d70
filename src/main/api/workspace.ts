import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { checkFolder } from '../workspace/check-folder'

/** Which folders the app opens, and whether their authors are trusted. */
export function workspaceApi({
  hooks,
  recent,
  trust,
  sessions
}: Pick<Services, 'hooks' | 'recent' | 'trust' | 'sessions'>): SliceHandlers<'workspace'> {
  return {
    'workspace.recent': async () => ({ folders: await recent.list() }),
    'workspace.open': async ({ path: requested }, ctx) => {
      const folder = await checkFolder(requested)
      // Asked before the folder joins the recent list: the first look migrates that list, and a
      // folder first opened now must not count as one opened before trust was asked.
      const trusted = await trust.get(folder)
      await recent.add(folder)
      const openedElsewhere = (await hooks.openWorkspace?.(folder, ctx.caller)) ?? false
      return { path: folder, openedElsewhere, trust: trusted }
    },
    'workspace.setTrust': async ({ path: requested, trust: chosen }) => {
      const folder = await checkFolder(requested)
      await trust.set(folder, chosen)
      // The folder's open sessions follow at once.
      if (chosen === 'untrusted') sessions.distrustFolder(folder)
      return { path: folder, trust: await trust.get(folder) }
    },
    'workspace.pickFolder': async () => {
      if (!hooks.pickFolder) {
        throw new RpcError('unsupported', 'choosing a folder needs the desktop app; type its path')
      }
      return { path: await hooks.pickFolder() }
    }
  }
}
