import type { Dirent } from 'node:fs'
import { z } from 'zod'
import type { JailedDir } from '../../workspace/jailed-dir'
import { inputString } from '../../../shared/tool-input'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool } from './file-tool'
import { counted, pathIn, plainPresentation } from '../tool-presentation'
import { withJail } from './jail-scope'

/** More entries than this are counted, not listed. */
export const LIST_MAX_ENTRIES = 1000

const inputSchema = z.strictObject({
  path: z
    .string()
    .min(1)
    .default('.')
    .describe('Directory to list, relative to the project folder. Default: the folder itself.')
})

/** Lists one directory of the project folder, one entry a line. */
export const listDirTool: Tool = fileTool({
  name: 'ListDir',
  description: [
    'List the entries of one directory in the project folder (not recursive), sorted by name,',
    'one per line. Directories end with `/`; symbolic links show as `name -> target`; other',
    `special files show their kind in parentheses. At most ${LIST_MAX_ENTRIES} entries are`,
    'listed, with a count of the rest. Use Read to see a file.'
  ].join(' '),
  inputSchema,
  access: 'reads',
  // The names in the folder.
  folderContent: true,
  presentation: {
    ...plainPresentation('ListDir', 'nothing'),
    summary: (input) => inputString(input, 'path', 'file_path') ?? '.',
    grouped: counted('listed', 'folder', 'folders'),
    sentence: (input) =>
      `List what is in the folder ${pathIn(input) ?? 'at the top of the project'}.`
  },
  call: (input, ctx) =>
    withJail(ctx, async (scope) => {
      const located = await scope.locate(input.path)
      if (!located.ok) return located.output
      const { place } = located
      const { shown, state } = place

      if (state.kind === 'missing' || state.kind === 'under-file') {
        return errorOutput(
          `\`${shown}\` does not exist; list its parent directory to check the name`
        )
      }
      if (state.kind !== 'directory') {
        return errorOutput(`\`${shown}\` is not a directory; use Read to see a file`)
      }

      // Listed through its descriptor: the directory listed is the one the jail checked.
      const dir = await scope.directory(place)
      const entries = await dir.readdir()
      if (entries.length === 0) return textOutput('(empty directory)')
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      const listed = await Promise.all(
        entries.slice(0, LIST_MAX_ENTRIES).map((entry) => describeEntry(dir, entry))
      )
      const display = { kind: 'listing' as const, entries: [...listed] }
      const rest = entries.length - listed.length
      if (rest > 0) {
        listed.push(
          `(${rest} more ${rest === 1 ? 'entry' : 'entries'} not listed; ${entries.length} in all)`
        )
      }
      return { ...textOutput(listed.join('\n')), display }
    })
})

async function describeEntry(dir: JailedDir, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`
  if (entry.isFile()) return entry.name
  if (entry.isSymbolicLink()) {
    // Shown as written, not followed: the target may lie outside the folder.
    const target = await dir.readlink(entry.name).catch(() => null)
    return target === null ? `${entry.name} (symlink)` : `${entry.name} -> ${target}`
  }
  if (entry.isFIFO()) return `${entry.name} (fifo)`
  if (entry.isSocket()) return `${entry.name} (socket)`
  return `${entry.name} (device)`
}
