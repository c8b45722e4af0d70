import path from 'node:path'
import { z } from 'zod'
import { errorOutput, textOutput, type Tool, type ToolOutput } from '../tool'
import { fileTool } from './file-tool'
import { counted, plainPresentation } from '../tool-presentation'
import { humanLimit, plural } from './lines'
import type { ScanBudget, SearchRequest, SearchResult } from './search/engine'
import { createFileSearcher, type SearchSpec } from './search/file-searcher'
import { globMatcher, globProblem, normaliseGlob, ripgrepGlob } from './search/glob-pattern'
import { formatMatches, sortFiles } from './search/grep-format'
import { findRipgrep, searchWithRipgrep } from './search/grep-rg'
import { searchWithNode } from './search/grep-node'
import { IgnoreRules } from './search/ignore-rules'
import { RipgrepPatternError } from './search/rg-json'
import { CAN_HAND_FILES } from './search/rg-through-jail'
import { ignoredScope, resolveScope, type SearchScope } from './search/scope'
import { groupedDigits } from '../../../shared/grouped-digits'

/** The limits of Grep; tests shrink them to reach them with small trees. */
export interface GrepLimits {
  /** Matching lines listed; the rest are counted. */
  shownLines: number
  /** The search stops after this many matching lines. */
  matchCeiling: number
  /** Longer lines are cut around their first hit. */
  maxLineChars: number
  /** For searches of the whole project (no path, no glob): files and bytes read at most. */
  unscoped: ScanBudget
}

export const defaultGrepLimits: GrepLimits = {
  shownLines: 250,
  matchCeiling: 2000,
  maxLineChars: 300,
  unscoped: { files: 100_000, bytes: 1024 * 1024 * 1024 }
}

export interface GrepOptions {
  /** Where `rg` is, or null to search in Node; asked on every call (PATH may change). */
  ripgrep: () => string | null
  limits?: GrepLimits
}

const inputSchema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('A regular expression (JavaScript/ripgrep syntax), or plain text with `literal`.'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or directory to search, relative to the project folder. Default: all of it.'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Only search files whose path matches this glob, relative to the project folder: `src/**/*.ts`; without a `/` it matches file names at any depth (`*.py`).'
    ),
  literal: z
    .boolean()
    .default(false)
    .describe('Treat `pattern` as plain text, not a regular expression. Default false.'),
  ignore_case: z.boolean().default(false).describe('Match case-insensitively. Default false.'),
  context: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe('Lines to show before and after each match (0-10). Default 0.'),
  include_ignored: z
    .boolean()
    .default(false)
    .describe('Also search files that .gitignore excludes. Default false.')
})

type GrepInput = z.infer<typeof inputSchema>

const checker = createFileSearcher()

/** Builds Grep with a way to find ripgrep; the app's Grep looks for `rg` on PATH. */
export function createGrepTool(options: GrepOptions): Tool {
  const limits = options.limits ?? defaultGrepLimits
  return fileTool({
    name: 'Grep',
    description: [
      'Search file contents in the project folder by regular expression (or plain text with',
      '`literal`). Prints matching lines like ripgrep: `path:line:text`, with `context` lines',
      'as `path-line-text` and `--` between groups; paths are relative to the project folder.',
      'Lines are matched one at a time (a pattern never spans lines). Files excluded by',
      '.gitignore, binary files and `.git` are skipped. Scope a search with `path` and `glob`:',
      `a search of the whole project stops after ${groupedDigits(limits.unscoped.files)} files or`,
      `${humanLimit(limits.unscoped.bytes)}, and every search after`,
      `${groupedDigits(limits.matchCeiling)} matching lines (${limits.shownLines} are listed). Use Glob to`,
      'find files by name.'
    ].join(' '),
    inputSchema,
    access: 'reads',
    folderContent: true,
    presentation: plainPresentation('Grep', 'nothing', counted('searched', 'pattern', 'patterns')),
    async call(input, ctx): Promise<ToolOutput> {
      const spec: SearchSpec = {
        pattern: input.pattern,
        literal: input.literal,
        ignoreCase: input.ignore_case,
        context: input.context,
        maxLineChars: limits.maxLineChars
      }
      try {
        checker.check(spec)
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error)
        return errorOutput(
          `\`${input.pattern}\` is not a valid regular expression (${why}); fix it, or set literal to true to search for the text as written`
        )
      }
      const glob = input.glob === undefined ? undefined : normaliseGlob(input.glob)
      const problem = glob === undefined ? null : globProblem(glob, 'glob')
      if (problem) return errorOutput(problem)
      const located = await resolveScope(ctx, input.path, true)
      if (!located.ok) return located.output
      const scope = located.scope
      const rules = input.include_ignored || scope.spilled ? null : new IgnoreRules(scope.root)
      const ignored = await ignoredScope(scope, rules)
      if (ignored) return ignored
      // Known before the search, so both engines give the same hint.
      const ignoreFilesAbove = rules?.any ?? false

      const matchesGlob = glob === undefined ? () => true : globMatcher(glob, true)
      const request: SearchRequest = {
        root: scope.root,
        scope: { kind: scope.kind, path: scope.path },
        spec,
        rules,
        accepts: matchesGlob,
        ripgrepGlob: glob === undefined ? null : ripgrepGlob(glob),
        budget: scope.path === '' && glob === undefined ? limits.unscoped : null,
        matchCeiling: limits.matchCeiling,
        signal: ctx.signal
      }
      const result = await search(request, options.ripgrep())
      return present(result, input, scope, limits, ignoreFilesAbove)
    }
  })
}

/**
 * ripgrep when it is there, can be handed the files it shows (see SearchThroughJail) and takes
 * the pattern; the Node engine otherwise.
 */
async function search(request: SearchRequest, rg: string | null): Promise<SearchResult> {
  if (rg && CAN_HAND_FILES) {
    try {
      return await searchWithRipgrep(rg, request)
    } catch (error) {
      // Its regex dialect refuses a few things JavaScript reads (look-around, a bare `{`).
      if (!(error instanceof RipgrepPatternError)) throw error
    }
  }
  return searchWithNode(request)
}

function present(
  result: SearchResult,
  input: GrepInput,
  scope: SearchScope,
  limits: GrepLimits,
  ignoreFilesAbove: boolean
): ToolOutput {
  let files = sortFiles(result.files)
  if (scope.spilled) {
    // A spilled output lives outside the project: name it by its full path.
    files = files.map((file) => ({ ...file, path: path.join(scope.root, file.path) }))
  }
  const formatted = formatMatches(files, limits.shownLines, input.context)
  const more = result.matchingLines - formatted.shown
  const display = { kind: 'matches' as const, matches: formatted.matches, more }
  const notes: string[] = []
  if (more > 0) {
    const atLeast = result.stopped === 'matches' ? 'at least ' : ''
    notes.push(
      `… and ${atLeast}${plural(more, 'more matching line')} not shown; narrow the pattern, or scope the search with path or glob`
    )
  }
  if (result.stopped === 'matches') {
    notes.push(
      `(The search stopped after ${groupedDigits(limits.matchCeiling)} matching lines. Scope it with path or glob, or make the pattern narrower.)`
    )
  } else if (result.stopped === 'files' || result.stopped === 'bytes') {
    const limit =
      result.stopped === 'files'
        ? `${groupedDigits(limits.unscoped.files)} files`
        : humanLimit(limits.unscoped.bytes)
    notes.push(
      `(The search stopped after ${limit}, the most a search of the whole project reads, so files may be missing. Scope it with path (a directory) or glob (e.g. \`src/**/*.ts\`).)`
    )
  }
  if (formatted.shown === 0) {
    const where = scope.path === '' && !scope.spilled ? '' : ` in \`${scope.shown}\``
    const inGlob = input.glob === undefined ? '' : ` (files matching \`${input.glob}\`)`
    const hint = ignoreFilesAbove ? '; files ignored by .gitignore were not searched' : ''
    const text = [`No matches for \`${input.pattern}\`${where}${inGlob}${hint}`, ...notes].join(
      '\n'
    )
    return { ...textOutput(text), display }
  }
  return { ...textOutput([formatted.text, ...notes].join('\n')), display }
}

/** The app's Grep: ripgrep when `rg` is on PATH, else the Node engine. */
export const grepTool: Tool = createGrepTool({ ripgrep: () => findRipgrep() })
