import { z } from 'zod'
import { writeFileAtomicIn } from '../../workspace/atomic-write'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool } from './file-tool'
import { withDiff } from './diff-display'
import { readForReplace, refuseUnapprovedGitWrite, withJail } from './jail-scope'
import { sizeSummary } from './lines'
import { inputString, keyArgument, lineCount } from '../../../shared/tool-input'
import { callsOf, pathIn, type ApprovalPreview } from '../tool-presentation'

const inputSchema = z.strictObject({
  path: z.string().min(1).describe('File to write, relative to the project folder.'),
  content: z.string().describe('The complete new content of the file.')
})

function linesOf(input: unknown): string {
  const lines = lineCount(inputString(input, 'content') ?? '')
  return `${lines} line${lines === 1 ? '' : 's'}`
}

/** The whole content as added lines, numbered from 1: the dialog has the call, not the file. */
function writePreview(input: unknown): ApprovalPreview | null {
  const content = (input as { content?: unknown } | null)?.content
  if (typeof content !== 'string') return null
  return {
    kind: 'diff',
    path: inputString(input, 'path') ?? '(no path)',
    before: '',
    after: content
  }
}

/** Creates a file, or replaces one this session has read and that has not changed since. */
export const writeTool: Tool = fileTool({
  name: 'Write',
  description: [
    'Write a whole file in the project folder: create it (with any missing parent directories),',
    'or replace its entire content. To replace an existing file you must have Read it in this',
    'session, and it must not have changed since; otherwise Read it (again) first. To change',
    'part of a file, prefer Edit. The write is atomic: readers see the old file or the new one.'
  ].join(' '),
  inputSchema,
  access: 'changes',
  // It answers with the path and size it was given, nothing of what was in the folder.
  folderContent: false,
  presentation: {
    summary: (input) => {
      const path = inputString(input, 'path', 'file_path')
      return path ? `${path} · ${linesOf(input)}` : keyArgument(input)
    },
    grouped: callsOf('Write'),
    resultView: 'display',
    sentence: (input) =>
      `Write ${linesOf(input)} to ${pathIn(input) ?? 'a file'}, creating it or replacing what is there.`,
    changes: 'files',
    preview: writePreview
  },
  pathsWritten: (input) => [input.path],
  async call(input, ctx) {
    return withJail(ctx, async (scope) => {
      const located = await scope.locate(input.path)
      if (!located.ok) return located.output
      const { place } = located
      refuseUnapprovedGitWrite(ctx, place.path)
      const { shown, state } = place

      let before: Buffer | null = null
      let mode: number | null = null
      switch (state.kind) {
        case 'directory':
          return errorOutput(`\`${shown}\` is a directory; Write needs the path of a file`)
        case 'special':
          return errorOutput(
            `\`${shown}\` is not a regular file (a device, socket or FIFO); Write only replaces regular files`
          )
        case 'under-file':
          return errorOutput(underFile(shown))
        case 'file': {
          const existing = await readForReplace(ctx, place, 'Write')
          if (!existing.ok) return existing.output
          before = existing.bytes
          mode = existing.stats.mode & 0o7777
          break
        }
        case 'missing':
          break
      }
      const dir = await scope.createParent(place)
      if (dir === null) return errorOutput(underFile(shown))

      try {
        await writeFileAtomicIn(dir, place.name, input.content, mode)
      } catch (error) {
        // No file, so none of the folders made for it either.
        await scope.undoCreated()
        throw error
      }
      ctx.reads.record(place.path, input.content)
      const verb = state.kind === 'file' ? 'Replaced' : 'Created'
      return withDiff(
        textOutput(`${verb} \`${shown}\` (${sizeSummary(input.content)})`),
        shown,
        before,
        input.content
      )
    })
  }
})

function underFile(shown: string): string {
  return `cannot create \`${shown}\`: part of its path is a file, not a directory; check the path with ListDir`
}
