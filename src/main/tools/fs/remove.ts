import { z } from 'zod'
import { JailRefusal, type JailedDir } from '../../workspace/jailed-dir'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool } from './file-tool'
import { pathIn, plainPresentation } from '../tool-presentation'
import { locateEntry } from './entry'
import { errnoCode } from './file-state'
import { withJail } from './jail-scope'
import { plural } from './lines'

/** How many names of a non-empty directory a refusal lists. */
const NAMES_SHOWN = 5

const inputSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .describe('The file or empty directory to remove, relative to the project folder.')
})

/** Deletes one file, link or empty directory; never anything recursively. */
export const removeTool: Tool = fileTool({
  name: 'Remove',
  description: [
    'Delete one file or one empty directory in the project folder. It is never recursive: a',
    'directory with anything in it is refused, so remove its contents first. A symbolic link is',
    'removed itself; what it points to is not touched.'
  ].join(' '),
  inputSchema,
  access: 'changes',
  // It answers with the path it was given.
  folderContent: false,
  presentation: {
    ...plainPresentation('Remove', 'files'),
    sentence: (input) => `Delete ${pathIn(input) ?? 'a file'}.`
  },
  pathsWritten: (input) => [input.path],
  call: (input, ctx) =>
    withJail(ctx, async (scope) => {
      const entry = await locateEntry(scope, input.path)
      if (!entry.ok) return entry.output
      const { shown, stats, parent, name } = entry
      if (entry.isRoot) {
        return errorOutput(
          `\`${input.path}\` is the project folder itself; Remove only deletes what is inside it`
        )
      }
      if (stats === null || parent === null) {
        return errorOutput(
          `\`${shown}\` does not exist, so nothing was removed; check the name with ListDir`
        )
      }
      if (stats.isDirectory()) {
        // Listed through its own descriptor: the directory looked into is the one removed.
        const names = await scope.keep(await parent.openDir(name)).readdir()
        if (names.length > 0) return errorOutput(notEmpty(shown, names))
        try {
          await parent.rmdir(name)
        } catch (error) {
          const code = errnoCode(error)
          // A link put in its place: rmdir refuses it rather than follow it.
          if (code === 'ENOTDIR') throw new JailRefusal('changed', entry.path)
          // Something was created inside it since it was listed.
          if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
          const now = await scope.keep(await parent.openDir(name)).readdir()
          return errorOutput(notEmpty(shown, now))
        }
        return textOutput(`Removed the empty directory \`${shown}\``)
      }
      // unlink never follows a link and refuses a directory, so it removes no more than this.
      if (stats.isSymbolicLink()) {
        const target = await parent.readlink(name)
        await unlinkEntry(parent, name, entry.path)
        return textOutput(
          `Removed the symbolic link \`${shown}\` (it pointed to \`${target}\`, which was not touched)`
        )
      }
      await unlinkEntry(parent, name, entry.path)
      const what = stats.isFile() ? plural(stats.size, 'byte') : 'not a regular file'
      return textOutput(`Removed \`${shown}\` (${what})`)
    })
})

async function unlinkEntry(parent: JailedDir, name: string, canonical: string): Promise<void> {
  try {
    await parent.unlink(name)
  } catch (error) {
    const code = errnoCode(error)
    // A directory put in its place since the look: it was not what was asked to go.
    if ((code === 'EISDIR' || code === 'EPERM') && (await parent.lstat(name))?.isDirectory()) {
      throw new JailRefusal('changed', canonical)
    }
    throw error
  }
}

function notEmpty(shown: string, entries: { name: string; isDirectory(): boolean }[]): string {
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort()
  const listed = names.slice(0, NAMES_SHOWN).join(', ') + (names.length > NAMES_SHOWN ? ', …' : '')
  return `\`${shown}\` is a directory that is not empty (${names.length} ${names.length === 1 ? 'entry' : 'entries'}: ${listed}); Remove never deletes recursively, so remove what is inside it first`
}
