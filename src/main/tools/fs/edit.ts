import { z } from 'zod'
import { writeFileAtomicIn } from '../../workspace/atomic-write'
import { errorOutput, textOutput, type Tool, type ToolContext, type ToolOutput } from '../tool'
import { fileTool } from './file-tool'
import { withDiff } from './diff-display'
import {
  parentOf,
  readForReplace,
  refuseUnapprovedGitWrite,
  withJail,
  type JailScope
} from './jail-scope'
import { numberLines, plural, splitLines } from './lines'
import { inputString, keyArgument } from '../../../shared/tool-input'
import { callsOf, pathIn, type ApprovalPreview } from '../tool-presentation'

const CONTEXT_LINES = 3
const MAX_SNIPPET_LINES = 30

const inputSchema = z.strictObject({
  path: z.string().min(1).describe('File to edit, relative to the project folder.'),
  old: z
    .string()
    .describe('The exact text to replace, as it is in the file (without Read line numbers).'),
  new: z.string().describe('The text to put in its place.'),
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every occurrence of `old` instead of requiring exactly one. Default false.')
})

/**
 * The replaced text against its replacement. Its line numbers count from the first line of the
 * replaced text: the dialog has the call, not the file.
 */
function editPreview(input: unknown): ApprovalPreview | null {
  const call = input as { old?: unknown; new?: unknown } | null
  if (typeof call?.old !== 'string' || typeof call.new !== 'string') return null
  const path = inputString(input, 'path') ?? '(no path)'
  return { kind: 'diff', path, before: call.old, after: call.new }
}

/** Replaces exact text in a file this session has read and that has not changed since. */
export const editTool: Tool = fileTool({
  name: 'Edit',
  description: [
    'Change part of a file in the project folder by exact string replacement: `old` is',
    'replaced by `new`. `old` must match the file exactly, including whitespace and',
    'indentation, and must appear exactly once unless `replace_all` is true; if it appears more',
    'often, include more surrounding lines to make it unique. You must have Read the file in',
    'this session, and it must not have changed since; otherwise Read it (again) first. To',
    'create a file or replace all of it, use Write.'
  ].join(' '),
  inputSchema,
  access: 'changes',
  // It answers with the lines around the change, which are the folder's.
  folderContent: true,
  presentation: {
    summary: keyArgument,
    grouped: callsOf('Edit'),
    resultView: 'display',
    sentence: (input) => {
      const where = pathIn(input) ?? 'a file'
      return (input as { replace_all?: unknown } | null)?.replace_all === true
        ? `Edit ${where}, replacing every occurrence of the text shown below.`
        : `Edit ${where}, replacing the text shown below.`
    },
    changes: 'files',
    preview: editPreview
  },
  pathsWritten: (input) => [input.path],
  call: (input, ctx) => withJail(ctx, (scope) => edit(input, ctx, scope))
})

async function edit(
  input: z.infer<typeof inputSchema>,
  ctx: ToolContext,
  scope: JailScope
): Promise<ToolOutput> {
  const located = await scope.locate(input.path)
  if (!located.ok) return located.output
  const { place } = located
  refuseUnapprovedGitWrite(ctx, place.path)
  const { shown, state } = place

  if (input.old === '') {
    return errorOutput(
      '`old` is empty; give the exact text to replace (to create a file, use Write)'
    )
  }
  if (input.old === input.new) {
    return errorOutput('`old` and `new` are the same; there is nothing to change')
  }
  switch (state.kind) {
    case 'missing':
    case 'under-file':
      return errorOutput(
        `\`${shown}\` does not exist; check the name with ListDir, or use Write to create a file`
      )
    case 'directory':
      return errorOutput(`\`${shown}\` is a directory; Edit changes files`)
    case 'special':
      return errorOutput(
        `\`${shown}\` is not a regular file (a device, socket or FIFO); Edit changes text files`
      )
    case 'file':
      break
  }

  const existing = await readForReplace(ctx, place, 'Edit')
  if (!existing.ok) return existing.output
  const { bytes, stats } = existing
  const text = decodeUtf8(bytes)
  if (text === null) {
    return errorOutput(
      `\`${shown}\` is not valid UTF-8 text, so Edit could not write it back unchanged; leave it as it is or replace it whole with Write`
    )
  }

  const found = occurrences(text, input.old)
  if (found.length === 0) {
    return errorOutput(
      `\`old\` was not found in \`${shown}\`; Read the file and copy the exact text, including whitespace`
    )
  }
  if (found.length > 1 && !input.replace_all) {
    return errorOutput(
      `\`old\` appears ${found.length} times; include more surrounding context to make it unique, or set replace_all`
    )
  }
  const first = found[0] ?? 0
  // split/join rather than String.replace, which would expand `$&` and friends in `new`.
  const updated = input.replace_all
    ? text.split(input.old).join(input.new)
    : text.slice(0, first) + input.new + text.slice(first + input.old.length)

  await writeFileAtomicIn(parentOf(place), place.name, updated, stats.mode & 0o7777)
  ctx.reads.record(place.path, updated)
  const where = found.length === 1 ? '' : ' (showing the first)'
  return withDiff(
    textOutput(
      `Edited \`${shown}\`: replaced ${plural(found.length, 'occurrence')}${where}.\n` +
        snippet(updated, first, input.new)
    ),
    shown,
    text,
    updated
  )
}

/** Start offsets of the non-overlapping matches, left to right, as split() would find them. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = []
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    found.push(at)
  }
  return found
}

function decodeUtf8(bytes: Buffer): string | null {
  try {
    // ignoreBOM keeps a byte order mark in the text, so it is written back.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    return null
  }
}

/** The replaced text with a few lines either side, numbered as Read numbers them. */
function snippet(updated: string, start: number, inserted: string): string {
  const lines = splitLines(updated)
  if (lines.length === 0) return '(the file is now empty)'
  const firstChanged = updated.slice(0, start).split('\n').length
  const lastChanged = firstChanged + Math.max(1, splitLines(inserted).length) - 1
  const from = Math.max(1, firstChanged - CONTEXT_LINES)
  const to = Math.min(lines.length, lastChanged + CONTEXT_LINES, from + MAX_SNIPPET_LINES - 1)
  return numberLines(lines.slice(from - 1, to), from)
}
