import { existsSync } from 'node:fs'
import type { SearchRequest } from './engine'
import type { FileMatches, LineRecord } from './file-searcher'
import { openThroughJail } from './open-through-jail'
import {
  decode,
  matchArgs,
  patternRefused,
  RipgrepPatternError,
  runRipgrep,
  toRecord,
  type RgRun
} from './rg-json'

/**
 * Whether files opened here can be handed to ripgrep as descriptors it reads by `/dev/fd/<n>`.
 * Where they cannot (Windows), ripgrep would have to open them by name, so Grep searches in Node.
 */
export const CAN_HAND_FILES = process.platform !== 'win32' && existsSync('/dev/fd')

/** Files per run of ripgrep: each run costs a spawn, and its files are open until it starts. */
const BATCH_FILES = 256
/** Runs at once: ripgrep searches the files of a run in parallel itself. */
const CONCURRENT_RUNS = 2

/**
 * The lines Grep shows, read through the jail. ripgrep walks the tree by name, so a directory
 * swapped for a link while it walks is followed, and what it finds is only a list of
 * candidates. Each is opened here only where its path says it is (see openThroughJail), so one
 * reached through a link is left out, and ripgrep is handed the descriptors to search, never a
 * path: what it prints was read from files inside the folder, matched with its own regex
 * dialect and rules as before. Candidates are searched in batches while the walk goes on.
 */
export class SearchThroughJail {
  private batch: string[] = []
  private readonly waiting: string[][] = []
  private readonly runs: Promise<void>[] = []
  private readonly found: FileMatches[] = []
  private alive = 0
  private failure: unknown = null
  /** What the runs so far searched, as ripgrep counts it. */
  filesScanned = 0
  bytesScanned = 0

  constructor(
    private readonly rg: string,
    private readonly request: SearchRequest
  ) {}

  /** A file to search, relative to the request's root. */
  add(relative: string): void {
    this.batch.push(relative)
    if (this.batch.length >= BATCH_FILES) this.flush()
  }

  /** Searches what is left and gives every file with a match; throws what a run threw. */
  async finish(): Promise<FileMatches[]> {
    this.flush()
    await Promise.all(this.runs)
    if (this.failure !== null) throw this.failure
    return this.found
  }

  /** Drops what has not started and waits for what has. */
  async abandon(): Promise<void> {
    this.batch = []
    this.waiting.length = 0
    await Promise.allSettled(this.runs)
  }

  private flush(): void {
    if (this.batch.length > 0) this.waiting.push(this.batch)
    this.batch = []
    while (this.alive < CONCURRENT_RUNS && this.waiting.length > 0) {
      this.alive++
      this.runs.push(this.work())
    }
  }

  private async work(): Promise<void> {
    try {
      for (let files = this.waiting.shift(); files; files = this.waiting.shift()) {
        if (this.request.signal.aborted || this.failure !== null) break
        this.found.push(...(await this.searchBatch(files)))
      }
    } catch (error) {
      this.failure ??= error
      this.waiting.length = 0
    } finally {
      this.alive--
    }
  }

  private async searchBatch(files: readonly string[]): Promise<FileMatches[]> {
    const opened = await openThroughJail(this.request.root, files)
    if (opened.length === 0) return []
    const handed = opened.map((file, i) => `/dev/fd/${i + 3}`)
    const relativeOf = new Map(handed.map((name, i) => [name, opened[i]?.relative]))
    const args = [...matchArgs(this.request.spec), '--no-ignore', '--regexp']
    args.push(this.request.spec.pattern, '--', ...handed)
    const records = new Map<string, LineRecord[]>()
    const found: FileMatches[] = []
    const { maxLineChars } = this.request.spec
    let running: Promise<RgRun>
    try {
      running = runRipgrep(
        this.rg,
        args,
        { cwd: this.request.root, fds: opened.map((file) => file.fd), signal: this.request.signal },
        (message) => {
          if (message.type === 'summary') {
            this.filesScanned += message.data.stats.searches
            this.bytesScanned += message.data.stats.bytes_searched
            return
          }
          // Only the descriptors handed over: any other path was not opened through the jail.
          const relative = relativeOf.get(decode(message.data.path))
          if (relative === undefined) return
          if (message.type === 'begin') {
            records.set(relative, [])
          } else if (message.type === 'match' || message.type === 'context') {
            const record = toRecord(message.data, message.type === 'match', maxLineChars)
            records.get(relative)?.push(record)
          } else if (message.type === 'end') {
            const lines = records.get(relative) ?? []
            records.delete(relative)
            if (message.data.binary_offset === null && lines.some((line) => line.match)) {
              found.push({ path: relative, lines })
            }
          }
        }
      )
      // Awaited below, once ours are closed; a failure meanwhile must not count as unhandled.
      running.catch(() => undefined)
    } finally {
      // ripgrep was started before runRipgrep returned and holds copies: ours can go now.
      await Promise.all(opened.map((file) => file.close()))
    }
    const run = await running
    if (patternRefused(run)) throw new RipgrepPatternError(run.stderr.trim())
    return found
  }
}
