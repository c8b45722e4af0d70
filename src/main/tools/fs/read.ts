import type { FileHandle } from 'node:fs/promises'
import { z } from 'zod'
import { errorOutput, textOutput, type Tool, type ToolContext, type ToolOutput } from '../tool'
import { fileTool } from './file-tool'
import { openRegularFile, withJail, type Place } from './jail-scope'
import { sniffImage } from './image-info'
import { imageOutput, readHead, tooLargeImage } from './read-image'
import { numberLines, plural, splitLines } from './lines'
import { inputNumber, inputString, keyArgument } from '../../../shared/tool-input'
import { counted, pathIn } from '../tool-presentation'

const DEFAULT_LIMIT = 2000
/** Above this a file is refused outright: it is read whole to record its version. */
export const READ_MAX_BYTES = 10 * 1024 * 1024
const BINARY_SNIFF_BYTES = 8 * 1024

const inputSchema = z.strictObject({
  path: z.string().min(1).describe('File to read, relative to the project folder.'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('1-based line number to start at. Default 1. Not for images.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines to show. Default ${DEFAULT_LIMIT}. Not for images.`)
})

/** The path, with the lines asked for when they do not start at the top. */
function readSummary(input: unknown): string {
  const path = inputString(input, 'path', 'file_path')
  if (!path) return keyArgument(input)
  const offset = inputNumber(input, 'offset')
  const limit = inputNumber(input, 'limit')
  if (offset && offset > 1 && limit) return `${path} · lines ${offset}–${offset + limit - 1}`
  if (offset && offset > 1) return `${path} · from line ${offset}`
  return path
}

/** Shows a text file with line numbers, and lets this session Write or Edit it afterwards. */
export const readTool: Tool = fileTool({
  name: 'Read',
  description: [
    'Read a text file in the project folder. Lines come numbered like `cat -n` (the number, a',
    'tab, then the line as it is in the file); the numbers are not part of the file, so leave',
    `them out when you copy text into Edit. Shows up to ${DEFAULT_LIMIT} lines from \`offset\`;`,
    'when the file is longer, the last line of the result says which offset to continue from.',
    'A file must be read in this session before Write or Edit may change it. PNG, JPEG, GIF',
    'and WebP images are shown as images when the model takes them (else described), whole:',
    'give no offset or limit. Directories (use ListDir), other binary files and files over',
    '10 MiB are refused.'
  ].join(' '),
  inputSchema,
  access: 'reads',
  folderContent: true,
  presentation: {
    summary: readSummary,
    grouped: counted('read', 'file', 'files'),
    resultView: 'display',
    sentence: (input) => `Read the file ${pathIn(input) ?? 'a file'}.`,
    changes: 'nothing',
    preview: null
  },
  call: (input, ctx) =>
    withJail(ctx, async (scope) => {
      const located = await scope.locate(input.path, 'read')
      if (!located.ok) return located.output
      const { place } = located
      const { shown, state } = place
      switch (state.kind) {
        case 'missing':
        case 'under-file':
          return errorOutput(`\`${shown}\` does not exist; check the name with ListDir`)
        case 'directory':
          return errorOutput(`\`${shown}\` is a directory; use ListDir`)
        case 'special':
          return errorOutput(
            `\`${shown}\` is not a regular file (a device, socket or FIFO); Read shows text files`
          )
        case 'file':
          break
      }
      // Read from the descriptor opened through the checked directory, never by name again.
      const { handle, stats } = await openRegularFile(place)
      try {
        return await readOpened(input, ctx, place, handle, stats.size)
      } finally {
        await handle.close()
      }
    })
})

async function readOpened(
  input: z.infer<typeof inputSchema>,
  ctx: ToolContext,
  place: Place,
  handle: FileHandle,
  size: number
): Promise<ToolOutput> {
  const { shown } = place
  if (size > READ_MAX_BYTES) {
    const image = sniffImage(await readHead(handle))
    if (image) return errorOutput(tooLargeImage(shown, image, size))
    return errorOutput(
      `\`${shown}\` is too large to Read (${size} bytes; the limit is 10 MiB), and offset/limit cannot get around that; look at it with a shell command later instead`
    )
  }

  const bytes = await handle.readFile({ signal: ctx.signal })
  const image = sniffImage(bytes)
  if (image) {
    const output = imageOutput(
      { shown, offset: input.offset, limit: input.limit },
      image,
      bytes,
      ctx
    )
    if (!output.isError) ctx.reads.record(place.path, bytes)
    return output
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
    return errorOutput(
      `\`${shown}\` is a binary file (${plural(bytes.length, 'byte')}); Read shows text files`
    )
  }

  const lines = splitLines(bytes.toString('utf8'))
  const first = input.offset ?? 1
  if (first > Math.max(lines.length, 1)) {
    return errorOutput(
      `offset ${first} is past the end of \`${shown}\` (${plural(lines.length, 'line')})`
    )
  }
  // The whole file is recorded even when only part is shown: the version is what Write and
  // Edit compare against, not what the model happened to look at.
  ctx.reads.record(place.path, bytes)
  if (lines.length === 0) return textOutput(`(\`${shown}\` is empty)`)
  const last = Math.min(lines.length, first + (input.limit ?? DEFAULT_LIMIT) - 1)
  let text = numberLines(lines.slice(first - 1, last), first)
  if (first > 1 || last < lines.length) {
    const more = last < lines.length ? `; continue with offset ${last + 1}` : ''
    text += `\n\n(showing lines ${first}-${last} of ${lines.length}${more})`
  }
  return textOutput(text)
}
