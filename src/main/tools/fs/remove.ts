import { readdir, readlink, rmdir, unlink } from 'node:fs/promises'
import { z } from 'zod'
import { defineTool, errorOutput, textOutput, type Tool } from '../tool'
import { locateEntry } from './entry'
import { changesFiles, errnoCode } from './file-state'
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
export const removeTool: Tool = defineTool({
  name: 'Remove',
  description: [
    'Delete one file or one empty directory in the project folder. It is never recursive: a',
    'directory with anything in it is refused, so remove its contents first. A symbolic link is',
    'removed itself; what it points to is not touched.'
  ].join(' '),
  inputSchema,
  readOnly: false,
  capabilities: changesFiles,
  source: 'builtin',
  async call(input, ctx) {
    const entry = await locateEntry(ctx, input.path)
    if (!entry.ok) return entry.output
    const { shown, stats } = entry
    if (entry.isRoot) {
      return errorOutput(
        `\`${input.path}\` is the project folder itself; Remove only deletes what is inside it`
      )
    }
    if (stats === null) {
      return errorOutput(
        `\`${shown}\` does not exist, so nothing was removed; check the name with ListDir`
      )
    }
    if (stats.isDirectory()) {
      const names = await readdir(entry.path, { withFileTypes: true })
      if (names.length > 0) return errorOutput(notEmpty(shown, names))
      try {
        await rmdir(entry.path)
      } catch (error) {
        // Something was created inside it since it was listed.
        if (errnoCode(error) !== 'ENOTEMPTY' && errnoCode(error) !== 'EEXIST') throw error
        return errorOutput(notEmpty(shown, await readdir(entry.path, { withFileTypes: true })))
      }
      return textOutput(`Removed the empty directory \`${shown}\``)
    }
    if (stats.isSymbolicLink()) {
      const target = await readlink(entry.path)
      await unlink(entry.path)
      return textOutput(
        `Removed the symbolic link \`${shown}\` (it pointed to \`${target}\`, which was not touched)`
      )
    }
    await unlink(entry.path)
    const what = stats.isFile() ? plural(stats.size, 'byte') : 'not a regular file'
    return textOutput(`Removed \`${shown}\` (${what})`)
  }
})

function notEmpty(shown: string, entries: { name: string; isDirectory(): boolean }[]): string {
  const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort()
  const listed = names.slice(0, NAMES_SHOWN).join(', ') + (names.length > NAMES_SHOWN ? ', …' : '')
  return `\`${shown}\` is a directory that is not empty (${names.length} ${names.length === 1 ? 'entry' : 'entries'}: ${listed}); Remove never deletes recursively, so remove what is inside it first`
}
