import { constants } from 'node:fs'
import { copyFile } from 'node:fs/promises'
import { z } from 'zod'
import { defineTool, errorOutput, textOutput, type Tool } from '../tool'
import { locateEntry, prepareDestination } from './entry'
import { changesFiles, errnoCode, locate } from './file-state'
import { plural } from './lines'

const inputSchema = z.strictObject({
  source: z.string().min(1).describe('The file to copy, relative to the project folder.'),
  destination: z
    .string()
    .min(1)
    .describe('The new file to create, relative to the project folder; it must not exist.')
})

/** Copies one regular file to a new name; never a directory, never over anything. */
export const copyTool: Tool = defineTool({
  name: 'Copy',
  description: [
    'Copy one regular file in the project folder to a new path (missing parent directories are',
    'created). The destination must not exist: Copy never overwrites, and it does not copy',
    'directories (copy their files one by one).'
  ].join(' '),
  inputSchema,
  readOnly: false,
  capabilities: changesFiles,
  source: 'builtin',
  async call(input, ctx) {
    // The source is followed like a Read: a link inside the folder copies what it points to, and
    // one that leads outside is refused, so a copy cannot bring outside data in.
    const source = await locate(ctx, input.source)
    if (!source.ok) return source.output
    const from = source.shown
    switch (source.state.kind) {
      case 'missing':
      case 'under-file':
        return errorOutput(`\`${from}\` does not exist; check the name with ListDir`)
      case 'directory':
        return errorOutput(
          `\`${from}\` is a directory; Copy copies one file, so copy its files one by one`
        )
      case 'special':
        return errorOutput(
          `\`${from}\` is not a regular file (a device, socket or FIFO); Copy copies regular files`
        )
      case 'file':
        break
    }
    const destination = await locateEntry(ctx, input.destination)
    if (!destination.ok) return destination.output
    const refused = await prepareDestination(destination, 'Copy')
    if (refused) return refused
    try {
      // COPYFILE_EXCL: if something appeared there since the check, fail rather than replace it.
      await copyFile(source.path, destination.path, constants.COPYFILE_EXCL)
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error
      return errorOutput(
        `\`${destination.shown}\` already exists and Copy never replaces anything; choose a name that does not exist, or Remove \`${destination.shown}\` first`
      )
    }
    return textOutput(
      `Copied \`${from}\` to \`${destination.shown}\` (${plural(source.state.stats.size, 'byte')})`
    )
  }
})
