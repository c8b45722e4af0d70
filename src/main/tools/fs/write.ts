import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../workspace/atomic-write'
import { defineTool, errorOutput, textOutput, type Tool } from '../tool'
import { withDiff } from './diff-display'
import { changesFiles, locate, stalenessMessage } from './file-state'
import { sizeSummary } from './lines'

const inputSchema = z.strictObject({
  path: z.string().min(1).describe('File to write, relative to the project folder.'),
  content: z.string().describe('The complete new content of the file.')
})

/** Creates a file, or replaces one this session has read and that has not changed since. */
export const writeTool: Tool = defineTool({
  name: 'Write',
  description: [
    'Write a whole file in the project folder: create it (with any missing parent directories),',
    'or replace its entire content. To replace an existing file you must have Read it in this',
    'session, and it must not have changed since; otherwise Read it (again) first. To change',
    'part of a file, prefer Edit. The write is atomic: readers see the old file or the new one.'
  ].join(' '),
  inputSchema,
  readOnly: false,
  capabilities: changesFiles,
  source: 'builtin',
  async call(input, ctx) {
    const located = await locate(ctx, input.path)
    if (!located.ok) return located.output
    const { shown, state } = located

    let before: Buffer | null = null
    switch (state.kind) {
      case 'directory':
        return errorOutput(`\`${shown}\` is a directory; Write needs the path of a file`)
      case 'special':
        return errorOutput(
          `\`${shown}\` is not a regular file (a device, socket or FIFO); Write only replaces regular files`
        )
      case 'under-file':
        return errorOutput(
          `cannot create \`${shown}\`: part of its path is a file, not a directory; check the path with ListDir`
        )
      case 'file': {
        const existing = await readFile(located.path)
        const fresh = ctx.reads.check(located.path, existing)
        if (!fresh.ok) return errorOutput(stalenessMessage(fresh.reason, shown, 'Write'))
        before = existing
        break
      }
      case 'missing':
        await mkdir(path.dirname(located.path), { recursive: true })
        break
    }

    await writeFileAtomic(located.path, input.content)
    ctx.reads.record(located.path, input.content)
    const verb = state.kind === 'file' ? 'Replaced' : 'Created'
    return withDiff(
      textOutput(`${verb} \`${shown}\` (${sizeSummary(input.content)})`),
      shown,
      before,
      input.content
    )
  }
})
