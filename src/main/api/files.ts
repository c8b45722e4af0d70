import { stat } from 'node:fs/promises'
import path from 'node:path'
import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { checkFolder } from '../workspace/check-folder'
import { JailRefusal } from '../workspace/jailed-dir'
import type { PathJail } from '../workspace/path-jail'

/** More entries than this in one folder are counted, not listed. */
export const FILES_LIST_MAX = 1000

type Entry = { name: string; kind: 'file' | 'folder' }

/** A project's files as the window shows them: the Attach picker, the `@` finder, cut outputs. */
export function filesApi({
  sessions,
  fileIndexes
}: Pick<Services, 'sessions' | 'fileIndexes'>): SliceHandlers<'files'> {
  return {
    /**
     * One folder of a session's project, for the window's Attach file picker. The folder is
     * resolved by the session's jail and read through its descriptor, so the picker can only
     * ever offer what lies inside the project; links are shown only when they lead inside it.
     */
    'files.list': async ({ sessionId, path: requested }) => {
      const { jail } = sessions.get(sessionId)
      const relative = requested.replace(/\\/g, '/').replace(/\/+$/, '')
      const shown = JSON.stringify(relative)
      if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative)) {
        throw new RpcError(
          'invalid_input',
          `${shown} is outside the project folder: give a relative path`
        )
      }
      const resolved = await jail.resolve(relative === '' ? '.' : relative, 'read')
      if (!resolved.ok || resolved.root !== jail.root) {
        throw new RpcError('invalid_input', `${shown} is outside the project folder`)
      }
      let walk
      try {
        walk = await jail.openDir(resolved)
      } catch (error) {
        if (error instanceof JailRefusal) throw new RpcError('conflict', jail.refusalMessage(error))
        throw error
      }
      if (walk.kind !== 'open') {
        throw new RpcError('not_found', `${shown} is not a folder of the project; go back up`)
      }
      const dir = walk.dir
      try {
        const dirents = await dir.readdir()
        const entries: Entry[] = []
        let more = 0
        for (const dirent of dirents) {
          if (dirent.name === '.git') continue
          if (entries.length >= FILES_LIST_MAX) {
            more++
            continue
          }
          if (dirent.isDirectory()) entries.push({ name: dirent.name, kind: 'folder' })
          else if (dirent.isFile()) entries.push({ name: dirent.name, kind: 'file' })
          else if (dirent.isSymbolicLink()) {
            const target = await linkTarget(jail, path.posix.join(relative, dirent.name))
            if (target) entries.push({ name: dirent.name, kind: target })
          }
        }
        entries.sort(
          (a, b) =>
            Number(b.kind === 'folder') - Number(a.kind === 'folder') ||
            (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
        )
        const listed = path.relative(jail.root, resolved.path).split(path.sep).join('/')
        return { path: listed, entries, more }
      } finally {
        await dir.close()
      }
    },
    /** The `@` finder's call: answered from the folder's index, the folder checked first. */
    'files.find': async ({ workspace, query, limit }) => {
      const folder = await checkFolder(workspace)
      return fileIndexes.of(folder).find(query, limit ?? 50)
    },
    /** A cut tool output saved whole; only files in that session's own spill directory. */
    'spill.read': async ({ sessionId, path: requested }) => {
      const read = await sessions.get(sessionId).spill.read(requested)
      if (!read.ok) throw new RpcError('invalid_input', read.message)
      const { path: file, text, totalBytes, shownBytes } = read
      return { path: file, text, totalBytes, shownBytes }
    }
  }
}

/** What a link leads to when that is inside the project folder; null otherwise. */
async function linkTarget(jail: PathJail, relative: string): Promise<'file' | 'folder' | null> {
  const resolved = await jail.resolve(relative, 'read')
  if (!resolved.ok || resolved.root !== jail.root) return null
  const info = await stat(resolved.path).catch(() => null)
  if (info?.isDirectory()) return 'folder'
  return info?.isFile() ? 'file' : null
}
