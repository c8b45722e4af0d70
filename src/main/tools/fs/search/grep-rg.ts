import { accessSync, constants, existsSync } from 'node:fs'
import path from 'node:path'
import type { SearchRequest, SearchResult } from './engine'
import { countMatches } from './engine'
import { decode, matchArgs, patternRefused, RipgrepPatternError, runRipgrep } from './rg-json'
import { SearchThroughJail } from './rg-through-jail'

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
  const args = [...matchArgs(request.spec), '--hidden', '--glob', '!.git']
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
  if (request.ripgrepGlob !== null) args.push('--glob', request.ripgrepGlob)
  args.push(
    '--regexp',
    request.spec.pattern,
    '--',
    request.scope.path === '' ? '.' : request.scope.path
  )
  return args
}

/**
 * The search done by ripgrep, with its results held to the same rules as the Node engine's:
 * binary files dropped, paths relative to the project, ignored files and files outside the
 * `glob` scope filtered out again, long lines cut the same way. ripgrep walks the tree by name,
 * so its walk only picks the files with matches; what is shown of them is searched again
 * through the jail (see SearchThroughJail).
 */
export async function searchWithRipgrep(rg: string, request: SearchRequest): Promise<SearchResult> {
  const jailed = new SearchThroughJail(rg, request)
  let filesScanned = 0
  let bytesScanned = 0
  let stopped: SearchResult['stopped'] = null
  try {
    if (request.scope.kind === 'file') {
      jailed.add(request.scope.path)
    } else {
      let inFile = 0
      let matchingLines = 0
      const run = await runRipgrep(
        rg,
        ripgrepArgs(request),
        { cwd: request.root, signal: request.signal },
        async (message) => {
          if (message.type === 'begin') {
            inFile = 0
          } else if (message.type === 'match') {
            inFile++
          } else if (message.type === 'end') {
            const relative = relativePath(decode(message.data.path))
            if (
              message.data.binary_offset === null &&
              inFile > 0 &&
              (await keep(relative, request))
            ) {
              jailed.add(relative)
              matchingLines += inFile
              if (matchingLines >= request.matchCeiling) {
                stopped = 'matches'
                return false
              }
            }
          } else if (message.type === 'summary') {
            filesScanned = message.data.stats.searches
            bytesScanned = message.data.stats.bytes_searched
          }
        }
      )
      if (patternRefused(run)) throw new RipgrepPatternError(run.stderr.trim())
    }
  } catch (error) {
    await jailed.abandon()
    throw error
  }
  const files = await jailed.finish()
  if (request.scope.kind === 'file') {
    filesScanned = jailed.filesScanned
    bytesScanned = jailed.bytesScanned
  }
  return {
    files,
    matchingLines: countMatches(files),
    filesScanned,
    bytesScanned,
    stopped,
    engine: 'ripgrep'
  }
}

function relativePath(shown: string): string {
  return shown.startsWith('./') ? shown.slice(2) : shown
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
