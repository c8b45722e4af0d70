import path from 'node:path'
import { z } from 'zod'
import { JailRefusal, type JailedDir } from '../../workspace/jailed-dir'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool, relocationPresentation } from './file-tool'
import { locateEntry, prepareDestination, type Entry } from './entry'
import { errnoCode } from './file-state'
import { withJail } from './jail-scope'

const inputSchema = z.strictObject({
  source: z
    .string()
    .min(1)
    .describe('The file or directory to move, relative to the project folder.'),
  destination: z
    .string()
    .min(1)
    .describe('Its new path, relative to the project folder; it must not exist.')
})

/** Renames a file, directory or link to a path where nothing is. */
export const moveTool: Tool = fileTool({
  name: 'Move',
  description: [
    'Move or rename a file or directory inside the project folder (missing parent directories',
    'of the destination are created). The destination is the full new path and must not exist:',
    'Move never replaces anything. A symbolic link is moved itself, not what it points to.'
  ].join(' '),
  inputSchema,
  access: 'changes',
  // It answers with the paths it was given.
  folderContent: false,
  presentation: relocationPresentation('Move'),
  pathsWritten: (input) => [input.source, input.destination],
  call: (input, ctx) =>
    withJail(ctx, async (scope) => {
      const source = await locateEntry(scope, input.source)
      if (!source.ok) return source.output
      if (source.isRoot) {
        return errorOutput(
          `\`${input.source}\` is the project folder itself; Move only moves what is inside it`
        )
      }
      if (source.stats === null || source.parent === null) {
        return errorOutput(`\`${source.shown}\` does not exist; check the name with ListDir`)
      }
      const destination = await locateEntry(scope, input.destination)
      if (!destination.ok) return destination.output
      const into = () =>
        errorOutput(
          `cannot move \`${source.shown}\` into itself (\`${destination.shown}\`); choose a destination outside it`
        )
      if (source.stats.isDirectory() && destination.path.startsWith(source.path + path.sep)) {
        return into()
      }
      const prepared = await prepareDestination(scope, destination, 'Move')
      if (!prepared.ok) return prepared.output

      const moved = await moveEntry(source, source.parent, prepared.dir, destination)
      if (moved === 'exists') {
        return errorOutput(
          `\`${destination.shown}\` already exists and Move never replaces anything; choose a name that does not exist, or Remove \`${destination.shown}\` first`
        )
      }
      if (moved === 'into-itself') return into()
      if (moved === 'other-filesystem') {
        return errorOutput(
          `\`${source.shown}\` and \`${destination.shown}\` are on different filesystems, which Move cannot cross; Copy the file and then Remove the original`
        )
      }
      return textOutput(`Moved \`${source.shown}\` to \`${destination.shown}\``)
    })
})

/**
 * rename() would silently replace a file that appeared at the destination since the check, so
 * files and links are moved with link() (which fails if the name is taken) and unlink(). A
 * directory cannot be hard-linked: rename() refuses to replace a non-empty one, and the check
 * just made covers the rest.
 */
async function moveEntry(
  source: Entry,
  from: JailedDir,
  to: JailedDir,
  destination: Entry
): Promise<'moved' | 'exists' | 'other-filesystem' | 'into-itself'> {
  const { name } = source
  const isDirectory = source.stats?.isDirectory() === true
  // What is at the name now must be what was looked at: a directory swapped in for the file
  // (or the other way round) would be moved without the checks made for it.
  const now = await from.lstat(name)
  if (now === null || now.isDirectory() !== isDirectory) {
    throw new JailRefusal('changed', source.path)
  }
  try {
    if (isDirectory) {
      await from.rename(name, to, destination.name)
      return 'moved'
    }
    try {
      await from.link(name, to, destination.name)
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'EEXIST') return 'exists'
      // Filesystems without hard links: fall back to rename after the check already made.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') {
        throw error
      }
      await from.rename(name, to, destination.name)
      return 'moved'
    }
    await from.unlink(name)
    return 'moved'
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'EXDEV') return 'other-filesystem'
    if (code === 'EEXIST' || code === 'ENOTEMPTY') return 'exists'
    // The system's own check: a directory cannot go below itself.
    if (code === 'EINVAL' && isDirectory) return 'into-itself'
    throw error
  }
}
