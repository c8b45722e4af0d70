import { link, rename, unlink } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { defineTool, errorOutput, textOutput, type Tool } from '../tool'
import { locateEntry, prepareDestination } from './entry'
import { changesFiles, errnoCode } from './file-state'

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
export const moveTool: Tool = defineTool({
  name: 'Move',
  description: [
    'Move or rename a file or directory inside the project folder (missing parent directories',
    'of the destination are created). The destination is the full new path and must not exist:',
    'Move never replaces anything. A symbolic link is moved itself, not what it points to.'
  ].join(' '),
  inputSchema,
  readOnly: false,
  capabilities: changesFiles,
  source: 'builtin',
  async call(input, ctx) {
    const source = await locateEntry(ctx, input.source)
    if (!source.ok) return source.output
    if (source.isRoot) {
      return errorOutput(
        `\`${input.source}\` is the project folder itself; Move only moves what is inside it`
      )
    }
    if (source.stats === null) {
      return errorOutput(`\`${source.shown}\` does not exist; check the name with ListDir`)
    }
    const destination = await locateEntry(ctx, input.destination)
    if (!destination.ok) return destination.output
    if (source.stats.isDirectory() && destination.path.startsWith(source.path + path.sep)) {
      return errorOutput(
        `cannot move \`${source.shown}\` into itself (\`${destination.shown}\`); choose a destination outside it`
      )
    }
    const refused = await prepareDestination(destination, 'Move')
    if (refused) return refused

    const moved = await moveEntry(source.path, destination.path, source.stats.isDirectory())
    if (moved === 'exists') {
      return errorOutput(
        `\`${destination.shown}\` already exists and Move never replaces anything; choose a name that does not exist, or Remove \`${destination.shown}\` first`
      )
    }
    if (moved === 'other-filesystem') {
      return errorOutput(
        `\`${source.shown}\` and \`${destination.shown}\` are on different filesystems, which Move cannot cross; Copy the file and then Remove the original`
      )
    }
    return textOutput(`Moved \`${source.shown}\` to \`${destination.shown}\``)
  }
})

/**
 * rename() would silently replace a file that appeared at the destination since the check, so
 * files and links are moved with link() (which fails if the name is taken) and unlink(). A
 * directory cannot be hard-linked: rename() refuses to replace a non-empty one, and the check
 * just made covers the rest.
 */
async function moveEntry(
  from: string,
  to: string,
  isDirectory: boolean
): Promise<'moved' | 'exists' | 'other-filesystem'> {
  try {
    if (isDirectory) {
      await rename(from, to)
      return 'moved'
    }
    try {
      await link(from, to)
    } catch (error) {
      const code = errnoCode(error)
      if (code === 'EEXIST') return 'exists'
      // Filesystems without hard links: fall back to rename after the check already made.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') {
        throw error
      }
      await rename(from, to)
      return 'moved'
    }
    await unlink(from)
    return 'moved'
  } catch (error) {
    const code = errnoCode(error)
    if (code === 'EXDEV') return 'other-filesystem'
    if (code === 'EEXIST' || code === 'ENOTEMPTY') return 'exists'
    throw error
  }
}
