import { spawn } from 'node:child_process'
import { accessSync, constants, existsSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { SearchRequest, SearchResult } from './engine'
import { createFileSearcher, type FileMatches, type LineRecord } from './file-searcher'

/** ripgrep refused the pattern (its regex syntax differs from JavaScript's in places). */
export class RipgrepPatternError extends Error {}

const searcher = createFileSearcher()

let cachedPath: { env: string; rg: string | null } | null = null

/** The `rg` executable on PATH, or null when ripgrep is not installed. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  const searchPath = env.PATH ?? ''
  if (cachedPath?.env === searchPath) return cachedPath.rg
  let found: string | null = null
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg')
    try {
      accessSync(candidate, constants.X_OK)
      found = candidate
      break
    } catch {
      // not here
    }
  }
  cachedPath = { env: searchPath, rg: found }
  return found
}

/**
 * ripgrep's arguments for a request: the project's `.gitignore` files and nothing else (no
 * `.ignore`, global excludes, `.git/info/exclude` or files above the project), hidden files
 * included, `.git` skipped, symlinks not followed, no BOM sniffing: the Node engine's rules.
 */
export function ripgrepArgs(request: SearchRequest): string[] {
  const { spec } = request
  // --no-mmap: a memory-mapped file is only checked for NUL bytes near its start, so a binary
  // file named by `path` could be searched as text.
  const args = ['--json', '--no-config', '--no-mmap', '--hidden', '--encoding', 'none']
  args.push('--glob', '!.git')
  if (request.rules) {
    args.push('--no-ignore-dot', '--no-ignore-global', '--no-ignore-exclude')
    args.push('--no-ignore-parent', '--no-require-git')
    // Parent rules are off (they would reach above the project), so a search of a subfolder
    // gets the root's rules this way; rules of folders in between are applied afterwards.
    if (request.scope.path !== '' && existsSync(path.join(request.root, '.gitignore'))) {
      args.push('--ignore-file', '.gitignore')
    }
  } else {
    args.push('--no-ignore')
  }
  if (spec.literal) args.push('--fixed-strings')
  if (spec.ignoreCase) args.push('--ignore-case')
  if (spec.context > 0) args.push('--context', String(spec.context))
  if (request.ripgrepGlob !== null) args.push('--glob', request.ripgrepGlob)
  args.push('--regexp', spec.pattern, '--', request.scope.path === '' ? '.' : request.scope.path)
  return args
}

interface RgText {
  text?: string
  bytes?: string
}

interface RgLine {
  path: RgText
  lines: RgText
  line_number: number
  submatches?: { start: number; end: number }[]
}

type RgMessage =
  | { type: 'begin'; data: { path: RgText } }
  | { type: 'match' | 'context'; data: RgLine }
  | { type: 'end'; data: { path: RgText; binary_offset: number | null } }
  | { type: 'summary'; data: { stats: { bytes_searched: number; searches: number } } }

/**
 * The search done by ripgrep (`rg --json`), with its results held to the same rules as the
 * Node engine's: binary files dropped, paths relative to the project, ignored files and files
 * outside the `glob` scope filtered out again, long lines cut the same way.
 */
export async function searchWithRipgrep(rg: string, request: SearchRequest): Promise<SearchResult> {
  const child = spawn(rg, ripgrepArgs(request), {
    cwd: request.root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RIPGREP_CONFIG_PATH: '' }
  })
  const closed = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve(code))
  })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 64 * 1024) stderr += chunk
  })
  const kill = (): void => {
    child.kill('SIGKILL')
  }
  request.signal.addEventListener('abort', kill)

  const found: FileMatches[] = []
  let current: LineRecord[] = []
  let matchingLines = 0
  let filesScanned = 0
  let bytesScanned = 0
  let stopped: SearchResult['stopped'] = null
  let sawOutput = false
  try {
    const lines = createInterface({ input: child.stdout, crlfDelay: Infinity })
    for await (const raw of lines) {
      if (stopped) continue
      sawOutput = true
      const message = JSON.parse(raw) as RgMessage
      if (message.type === 'begin') {
        current = []
      } else if (message.type === 'match' || message.type === 'context') {
        current.push(toRecord(message.data, message.type === 'match', request.spec.maxLineChars))
      } else if (message.type === 'end') {
        const relative = relativePath(decode(message.data.path))
        if (message.data.binary_offset === null && (await keep(relative, request))) {
          found.push({ path: relative, lines: current })
          matchingLines += current.filter((l) => l.match).length
          if (matchingLines >= request.matchCeiling) {
            stopped = 'matches'
            kill()
          }
        }
        current = []
      } else if (message.type === 'summary') {
        filesScanned = message.data.stats.searches
        bytesScanned = message.data.stats.bytes_searched
      }
    }
    const code = await closed
    if (code === 2 && !sawOutput && /regex parse error|error parsing|regex/i.test(stderr)) {
      throw new RipgrepPatternError(stderr.trim())
    }
  } finally {
    request.signal.removeEventListener('abort', kill)
    if (child.exitCode === null) kill()
  }
  return { files: found, matchingLines, filesScanned, bytesScanned, stopped, engine: 'ripgrep' }
}

function decode(value: RgText): string {
  if (value.text !== undefined) return value.text
  return Buffer.from(value.bytes ?? '', 'base64').toString('utf8')
}

function relativePath(shown: string): string {
  return shown.startsWith('./') ? shown.slice(2) : shown
}

function toRecord(data: RgLine, match: boolean, maxLineChars: number): LineRecord {
  const bytes =
    data.lines.text !== undefined
      ? Buffer.from(data.lines.text, 'utf8')
      : Buffer.from(data.lines.bytes ?? '', 'base64')
  const end = bytes.at(-1) === 10 ? bytes.length - 1 : bytes.length
  const line = bytes.subarray(0, end)
  const text = line.toString('utf8')
  const ascii = text.length === line.length
  // ripgrep counts bytes; the window and the Node engine count UTF-16 units.
  const unit = (offset: number): number =>
    ascii ? offset : line.subarray(0, offset).toString('utf8').length
  const ranges: [number, number][] = (data.submatches ?? [])
    .filter((m) => m.end > m.start)
    .map((m) => [unit(m.start), unit(m.end)])
  const clipped = searcher.clipLine(text, ranges, maxLineChars)
  return { line: data.line_number, text: clipped.text, ranges: clipped.ranges, match }
}

/**
 * ripgrep applies the project's `.gitignore` files itself, except in two cases checked here: a
 * `--glob` it was given wins over them, and a search of a subfolder misses the rules of the
 * folders between it and the project folder.
 */
async function keep(relative: string, request: SearchRequest): Promise<boolean> {
  if (request.scope.kind === 'file') return true
  if (!request.accepts(relative)) return false
  const { rules } = request
  if (!rules || (request.ripgrepGlob === null && request.scope.path === '')) return true
  const dir = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : ''
  await rules.loadAncestors(dir)
  return !rules.isIgnored(relative, false)
}
