import { z } from 'zod'
import { errorOutput, textOutput, type Tool } from '../tool'
import { fileTool } from './file-tool'
import { counted, plainPresentation } from '../tool-presentation'
import { globMatcher, globProblem, normaliseGlob, splitGlob } from './search/glob-pattern'
import { IgnoreRules } from './search/ignore-rules'
import { look, resolveScope } from './search/scope'
import { walkFiles } from './search/walk'

/** Paths listed by default; the rest are counted. */
export const GLOB_DEFAULT_LIMIT = 1000

const inputSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob relative to the project folder (or to `path`): `*` and `?` stay within one directory, `**` crosses directories, `{a,b}` and `[abc]` work. Examples: `**/*.ts`, `src/**/test_*.py`, `*.md` (top level only).'
    ),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to search in, relative to the project folder. Default: the whole folder.'),
  include_ignored: z
    .boolean()
    .default(false)
    .describe('Also list files that .gitignore excludes. Default false.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(GLOB_DEFAULT_LIMIT)
    .describe(`Most paths to list. Default ${GLOB_DEFAULT_LIMIT}.`)
})

/** Lists the files whose path matches a glob, sorted, honouring .gitignore. */
export const globTool: Tool = fileTool({
  name: 'Glob',
  description: [
    'Find files by path pattern in the project folder. Lists matching files (not directories),',
    'one path per line relative to the project folder, sorted by path. Files excluded by',
    '.gitignore are skipped unless `include_ignored` is true; `.git` is always skipped, and',
    'symbolic links are not followed or listed. Use Grep to search inside files.'
  ].join(' '),
  inputSchema,
  access: 'reads',
  // The names of the folder's files.
  folderContent: true,
  presentation: plainPresentation('Glob', 'nothing', counted('matched', 'glob', 'globs')),
  async call(input, ctx) {
    const pattern = normaliseGlob(input.pattern)
    const problem = globProblem(pattern, 'pattern')
    if (problem) return errorOutput(problem)
    const located = await resolveScope(ctx, input.path, false)
    if (!located.ok) return located.output
    const scope = located.scope

    // Walk only below the pattern's fixed part (`src/**/*.ts` walks src), through the jail.
    const { base, rest } = splitGlob(pattern)
    const startRequest = [scope.path, base].filter((p) => p !== '').join('/') || '.'
    const found = await look(ctx, startRequest, 'write')
    if (!found.ok) return found.output
    const start = found.place
    const files: string[] = []
    const rules = input.include_ignored ? null : new IgnoreRules(ctx.jail.root)
    if (start.state.kind === 'directory') {
      const startPath = ctx.jail.display(start.path) === '.' ? '' : ctx.jail.display(start.path)
      await rules?.loadAncestors(startPath)
      const matches = globMatcher(rest === '' ? '**' : rest, false)
      const skip = startPath === '' ? 0 : startPath.length + 1
      const walk = { root: ctx.jail.root, start: startPath, rules, signal: ctx.signal }
      await walkFiles(walk, (relative) => {
        if (matches(relative.slice(skip))) files.push(relative)
      })
    }
    files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

    const shown = files.slice(0, input.limit)
    const more = files.length - shown.length
    const display = { kind: 'files' as const, files: shown, more }
    if (files.length === 0) {
      const hint = rules?.any
        ? '; files ignored by .gitignore were skipped (set include_ignored to list them)'
        : ''
      return { ...textOutput(`No files match \`${input.pattern}\`${hint}`), display }
    }
    const lines = [...shown]
    if (more > 0) lines.push(`… and ${more} more matched; narrow the pattern`)
    return { ...textOutput(lines.join('\n')), display }
  }
})
