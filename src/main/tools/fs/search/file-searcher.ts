/** What one Grep looks for; plain data, so it can be posted to a worker thread. */
export interface SearchSpec {
  pattern: string
  literal: boolean
  ignoreCase: boolean
  /** Lines shown before and after each matching line. */
  context: number
  /** Longer lines are cut around their first match. */
  maxLineChars: number
}

/** One line of a result: a match (with the ranges of its hits) or a context line. */
export interface LineRecord {
  line: number
  text: string
  /** [start, end) offsets of the hits in `text`, in UTF-16 units; empty for context lines. */
  ranges: [number, number][]
  match: boolean
}

/** A file that holds at least one match. */
export interface FileMatches {
  /** Relative to the project folder, with `/`. */
  path: string
  lines: LineRecord[]
}

/** What one batch of files gave: the files with matches, and how much was read. */
export interface BatchResult {
  files: FileMatches[]
  filesScanned: number
  bytesScanned: number
}

/** A file searcher: the same code runs in the main thread and in worker threads. */
export interface FileSearcher {
  /** Compiles a spec; throws a SyntaxError for a pattern JavaScript cannot read. */
  check(spec: SearchSpec): void
  searchBatch(root: string, files: readonly string[], spec: SearchSpec): BatchResult
  clipLine(
    text: string,
    ranges: [number, number][],
    max: number
  ): { text: string; ranges: [number, number][] }
  /** In a worker: answers `{ root, files, spec }` messages with a BatchResult each. */
  serve(): void
}

/**
 * Builds the searcher. It is written to be self-contained (no imports, no outer references) so
 * that `createFileSearcher.toString()` can start it in a worker thread, whatever the bundler
 * does with the module around it.
 *
 * A file is read in chunks (streaming, so a large file is never held whole) cut at line ends.
 * A chunk without the literal's bytes is skipped undecoded; otherwise candidate hits are found
 * over the whole chunk and each confirmed on its line alone, so a pattern never matches across
 * lines, as in ripgrep. A file with a NUL byte anywhere is binary and skipped.
 */
export function createFileSearcher(): FileSearcher {
  const fs = process.getBuiltinModule('node:fs')
  const pathModule = process.getBuiltinModule('node:path')
  const CHUNK_BYTES = 1024 * 1024
  const fdPaths = process.platform === 'linux' && fs.existsSync('/proc/self/fd')
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES)

  interface Matcher {
    /** The literal's bytes, when a chunk can be ruled out without decoding it. */
    bytes: Buffer | null
    /** The index of a candidate hit at or after `from`, or -1. */
    find(text: string, from: number): number
    /** The hits on one line, or null when it does not match. */
    onLine(line: string): [number, number][] | null
  }

  let cachedKey = ''
  let cached: Matcher | null = null

  /** Escapes only syntax characters: Unicode mode refuses needless escapes such as one of `-`. */
  function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }

  /** Unicode mode first (\p{...}, code points); the lenient legacy syntax when that fails. */
  function compileRegExp(source: string, flags: string): RegExp {
    try {
      return new RegExp(source, `${flags}u`)
    } catch {
      return new RegExp(source, flags)
    }
  }

  function matcherFor(spec: SearchSpec): Matcher {
    const key = `${spec.literal}\u0000${spec.ignoreCase}\u0000${spec.pattern}`
    if (cached && key === cachedKey) return cached
    let matcher: Matcher
    if (spec.literal && !spec.ignoreCase) {
      const needle = spec.pattern
      matcher = {
        bytes: Buffer.from(needle, 'utf8'),
        find: (text, from) => text.indexOf(needle, from),
        onLine: (line) => {
          const ranges: [number, number][] = []
          for (
            let at = line.indexOf(needle);
            at !== -1;
            at = line.indexOf(needle, at + needle.length)
          ) {
            ranges.push([at, at + needle.length])
          }
          return ranges.length > 0 ? ranges : null
        }
      }
    } else {
      const source = spec.literal ? escapeRegExp(spec.pattern) : spec.pattern
      const flags = `s${spec.ignoreCase ? 'i' : ''}`
      // `m` lets ^ and $ match at line ends across the chunk; hits are confirmed per line.
      const wide = compileRegExp(source, `${flags}gm`)
      const narrow = compileRegExp(source, `${flags}g`)
      matcher = {
        bytes: null,
        find: (text, from) => {
          wide.lastIndex = from
          const found = wide.exec(text)
          return found ? found.index : -1
        },
        onLine: (line) => {
          const ranges: [number, number][] = []
          let matched = false
          narrow.lastIndex = 0
          for (let found = narrow.exec(line); found; found = narrow.exec(line)) {
            matched = true
            const end = found.index + found[0].length
            if (end > found.index) ranges.push([found.index, end])
            else narrow.lastIndex = found.index + 1
            if (narrow.lastIndex > line.length) break
          }
          return matched ? ranges : null
        }
      }
    }
    cachedKey = key
    cached = matcher
    return matcher
  }

  function clipLine(
    raw: string,
    ranges: [number, number][],
    max: number
  ): { text: string; ranges: [number, number][] } {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (text.length <= max) {
      return {
        text,
        ranges: ranges
          .filter((r) => r[0] < text.length)
          .map((r) => [r[0], Math.min(r[1], text.length)])
      }
    }
    const first = ranges[0]
    const start = first && first[1] > max ? Math.max(0, first[0] - Math.floor(max / 3)) : 0
    const end = start + max
    const shift = (start > 0 ? 1 : 0) - start
    return {
      text: `${start > 0 ? '…' : ''}${text.slice(start, end)}…`,
      ranges: ranges
        .filter((r) => r[1] > start && r[0] < end)
        .map((r) => [Math.max(r[0], start) + shift, Math.min(r[1], end) + shift])
    }
  }

  /** Counts line ends in bytes or text from `from` to `to`. */
  function countNewlines(data: Buffer | string, from: number, to: number): number {
    let count = 0
    if (typeof data === 'string') {
      for (let at = data.indexOf('\n', from); at !== -1 && at < to; at = data.indexOf('\n', at + 1))
        count++
    } else {
      for (let at = data.indexOf(10, from); at !== -1 && at < to; at = data.indexOf(10, at + 1))
        count++
    }
    return count
  }

  /** The lines of a chunk, without their line ends (a final newline starts no extra line). */
  function splitLines(text: string): string[] {
    const lines = text.split('\n')
    if (lines.at(-1) === '') lines.pop()
    return lines
  }

  interface FileState {
    records: LineRecord[]
    /** Last line number emitted (match or context). */
    lastEmitted: number
    /** Context lines still owed after the last match. */
    afterLeft: number
    /** The last `context` lines before the current chunk, for before-context. */
    tail: { line: number; text: string }[]
  }

  /**
   * Searches one chunk of whole lines whose first line is number `firstLine`; returns how many
   * lines it held (0 for the last chunk when nothing more is needed).
   */
  function searchChunk(
    data: Buffer,
    firstLine: number,
    last: boolean,
    spec: SearchSpec,
    matcher: Matcher,
    state: FileState
  ): number {
    const context = spec.context
    const quickMiss = matcher.bytes !== null && data.indexOf(matcher.bytes) === -1
    if (quickMiss && state.afterLeft === 0) {
      if (last) return 0
      if (context === 0) return countNewlines(data, 0, data.length)
    }
    const text = data.toString('utf8')
    const hits: { index: number; ranges: [number, number][] }[] = []
    for (let pos = 0; !quickMiss && pos <= text.length;) {
      const at = matcher.find(text, pos)
      if (at === -1) break
      const start = text.lastIndexOf('\n', at - 1) + 1
      let end = text.indexOf('\n', at)
      if (end === -1) end = text.length
      const ranges = matcher.onLine(text.slice(start, end))
      if (ranges) hits.push({ index: start, ranges })
      pos = end + 1
    }
    if (hits.length === 0 && state.afterLeft === 0) {
      if (last) return 0
      if (context === 0) return countNewlines(text, 0, text.length)
    }
    const lines = splitLines(text)
    const textOf = (line: number): string => {
      if (line >= firstLine) return lines[line - firstLine] ?? ''
      return state.tail.find((t) => t.line === line)?.text ?? ''
    }
    const emit = (line: number, ranges: [number, number][], match: boolean): void => {
      const clipped = clipLine(textOf(line), ranges, spec.maxLineChars)
      state.records.push({ line, text: clipped.text, ranges: clipped.ranges, match })
      state.lastEmitted = line
    }
    const lastLine = firstLine + lines.length - 1
    const flushAfter = (upTo: number): void => {
      const until = Math.min(state.lastEmitted + state.afterLeft, upTo)
      for (let line = state.lastEmitted + 1; line <= until; line++) {
        emit(line, [], false)
        state.afterLeft--
      }
    }
    let counted = 0
    let lineOfHit = firstLine
    for (const hit of hits) {
      lineOfHit += countNewlines(text, counted, hit.index)
      counted = hit.index
      flushAfter(lineOfHit - 1)
      const from = Math.max(state.lastEmitted + 1, lineOfHit - context, 1)
      for (let line = from; line < lineOfHit; line++) emit(line, [], false)
      emit(lineOfHit, hit.ranges, true)
      state.afterLeft = context
    }
    flushAfter(lastLine)
    if (context > 0) {
      const recent = lines.slice(-context).map((t, i, all) => ({
        line: lastLine - all.length + 1 + i,
        text: t
      }))
      state.tail = [...state.tail, ...recent].slice(-context)
    }
    return lines.length
  }

  function realPathOf(fd: number): string | null {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`)
    } catch {
      return null
    }
  }

  /** The matching and context lines of one file; null when it cannot be read. */
  function searchFile(
    file: string,
    spec: SearchSpec,
    matcher: Matcher
  ): { lines: LineRecord[]; bytes: number; binary: boolean } | null {
    let fd: number
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
    } catch {
      return null
    }
    // A directory on the way swapped for a link since the walk listed it would lead outside the
    // folder: on Linux, the descriptor tells where the file opened really is.
    if (fdPaths && realPathOf(fd) !== file) {
      fs.closeSync(fd)
      return null
    }
    const state: FileState = { records: [], lastEmitted: 0, afterLeft: 0, tail: [] }
    let bytes = 0
    let nextLine = 1
    let carried = 0
    try {
      // The size tells when the last chunk is in hand, which spares counting its lines.
      const size = fs.fstatSync(fd).size
      for (;;) {
        if (carried === buffer.length) {
          // One line longer than the buffer: grow it rather than cut the line.
          const bigger = Buffer.allocUnsafe(buffer.length * 2)
          buffer.copy(bigger, 0, 0, carried)
          buffer = bigger
        }
        const read = fs.readSync(fd, buffer, carried, buffer.length - carried, null)
        bytes += read
        const filled = carried + read
        const atEnd = read === 0 || bytes >= size
        if (buffer.subarray(carried, filled).indexOf(0) !== -1) {
          return { lines: [], bytes, binary: true }
        }
        if (filled === 0) break
        const cut = atEnd ? filled : buffer.lastIndexOf(10, filled - 1) + 1
        if (cut === 0) {
          carried = filled
          continue
        }
        nextLine += searchChunk(buffer.subarray(0, cut), nextLine, atEnd, spec, matcher, state)
        if (atEnd) break
        buffer.copy(buffer, 0, cut, filled)
        carried = filled - cut
      }
    } catch {
      return null
    } finally {
      fs.closeSync(fd)
    }
    return { lines: state.records, bytes, binary: false }
  }

  function searchBatch(root: string, files: readonly string[], spec: SearchSpec): BatchResult {
    const matcher = matcherFor(spec)
    const result: BatchResult = { files: [], filesScanned: 0, bytesScanned: 0 }
    for (const relative of files) {
      const found = searchFile(pathModule.join(root, relative), spec, matcher)
      result.filesScanned++
      if (!found) continue
      result.bytesScanned += found.bytes
      if (!found.binary && found.lines.length > 0) {
        result.files.push({ path: relative, lines: found.lines })
      }
    }
    return result
  }

  function serve(): void {
    const { parentPort } = process.getBuiltinModule('node:worker_threads')
    parentPort?.on(
      'message',
      (message: { id: number; root: string; files: string[]; spec: SearchSpec }) => {
        parentPort.postMessage({
          id: message.id,
          result: searchBatch(message.root, message.files, message.spec)
        })
      }
    )
  }

  return { check: (spec) => void matcherFor(spec), searchBatch, clipLine, serve }
}
