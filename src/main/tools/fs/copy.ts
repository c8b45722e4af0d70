import { constants } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import { z } from 'zod'
import type { JailedDir } from '../../workspace/jailed-dir'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool, relocationPresentation } from './file-tool'
import { locateEntry, prepareDestination } from './entry'
import { errnoCode } from './file-state'
import { openRegularFile, withJail } from './jail-scope'
import { plural } from './lines'

const COPY_CHUNK_BYTES = 1024 * 1024

const inputSchema = z.strictObject({
  source: z.string().min(1).describe('The file to copy, relative to the project folder.'),
  destination: z
    .string()
    .min(1)
    .describe('The new file to create, relative to the project folder; it must not exist.')
})

/** Copies one regular file to a new name; never a directory, never over anything. */
export const copyTool: Tool = fileTool({
  name: 'Copy',
  description: [
    'Copy one regular file in the project folder to a new path (missing parent directories are',
    'created). The destination must not exist: Copy never overwrites, and it does not copy',
    'directories (copy their files one by one).'
  ].join(' '),
  inputSchema,
  access: 'changes',
  // It answers with the paths it was given.
  folderContent: false,
  presentation: relocationPresentation('Copy'),
  pathsWritten: (input) => [input.destination],
  call: (input, ctx) =>
    withJail(ctx, async (scope) => {
      // The source is followed like a Read: a link inside the folder copies what it points to,
      // and one that leads outside is refused, so a copy cannot bring outside data in.
      const source = await scope.locate(input.source)
      if (!source.ok) return source.output
      const from = source.place.shown
      switch (source.place.state.kind) {
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
      const destination = await locateEntry(scope, input.destination)
      if (!destination.ok) return destination.output
      const prepared = await prepareDestination(scope, destination, 'Copy')
      if (!prepared.ok) return prepared.output
      const { handle, stats } = await openRegularFile(source.place)
      try {
        const copied = await copyInto(handle, stats.mode & 0o777, prepared.dir, destination.name)
        if (!copied) {
          return errorOutput(
            `\`${destination.shown}\` already exists and Copy never replaces anything; choose a name that does not exist, or Remove \`${destination.shown}\` first`
          )
        }
      } finally {
        await handle.close()
      }
      return textOutput(
        `Copied \`${from}\` to \`${destination.shown}\` (${plural(stats.size, 'byte')})`
      )
    })
})

/**
 * Copies an open file to a new `name` in `dir`, created exclusively (O_EXCL: if something
 * appeared there since the check, nothing is replaced) and never through a link. False when the
 * name is taken; a copy cut short by an error is removed.
 */
async function copyInto(
  source: FileHandle,
  mode: number,
  dir: JailedDir,
  name: string
): Promise<boolean> {
  const { O_WRONLY, O_CREAT, O_EXCL } = constants
  let target: FileHandle
  try {
    target = await dir.openFile(name, O_WRONLY | O_CREAT | O_EXCL, mode)
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false
    throw error
  }
  try {
    // The umask applied at open; the copy gets the source's bits, as cp -p and copyFile do.
    await target.chmod(mode)
    const buffer = Buffer.allocUnsafe(COPY_CHUNK_BYTES)
    for (let position = 0; ;) {
      const { bytesRead } = await source.read(buffer, 0, buffer.length, position)
      if (bytesRead === 0) break
      for (let done = 0; done < bytesRead;) {
        done += (await target.write(buffer, done, bytesRead - done)).bytesWritten
      }
      position += bytesRead
    }
    await target.close()
  } catch (error) {
    await target.close().catch(() => undefined)
    await dir.unlink(name).catch(() => undefined)
    throw error
  }
  return true
}
