import type { Stats } from 'node:fs'
import path from 'node:path'
import { IgnoreRules } from '../tools/fs/search/ignore-rules'
import { walkEntries } from '../tools/fs/search/walk'
import {
  bestPossibleScore,
  lowerSameLength,
  matchesLowered,
  matchPositions,
  scoreLowered,
  TopPaths
} from './fuzzy-rank'
import { JailedDir } from '../workspace/jailed-dir'
import { TreeWatcher } from './tree-watcher'

export interface FileIndexOptions {
  /** Where a line about the index goes (watching given up); console.warn unless told. */
  log?: (line: string) => void
  /** Paths kept at most: the index's memory bound. */
  maxEntries?: number
  /** Directories watched at most before falling back to rescans. */
  maxWatchedDirs?: number
  /** Without a watcher, how old the list may get before a use rescans it. */
  rescanEveryMs?: number
}

/** One answer of the finder: a path relative to the project, with `/`. */
export interface FoundPath {
  path: string
  kind: 'file' | 'folder'
  /** Which characters of `path` the query matched, for highlighting. */
  positions: number[]
}

export interface FindResult {
  items: FoundPath[]
  /** How many paths matched in all. */
  total: number
  /** False when the project has more paths than the index keeps. */
  complete: boolean
}

interface Entry {
  path: string
  lower: string
  dir: boolean
  /** A directory's inode: a folder replaced by another of the same name is walked again. */
  ino: number
}

const MAX_ENTRIES = 500_000
const MAX_WATCHED_DIRS = 50_000
const RESCAN_EVERY_MS = 15_000
/** Watch events are gathered this long, so a burst (a checkout, a build) is looked at once. */
const SETTLE_MS = 25

const parentOf = (relative: string): string => {
  const slash = relative.lastIndexOf('/')
  return slash === -1 ? '' : relative.slice(0, slash)
}
const depthOf = (relative: string): number => relative.split('/').length
const inGit = (relative: string): boolean => relative.split('/').includes('.git')

/**
 * The paths of one project folder, for the `@` finder: files and folders the project's
 * `.gitignore` files do not exclude, never `.git`, never through a link. Built once, in the
 * background, when it is first made; kept fresh by a watcher on the listed folders, and where
 * watching is not possible (too many folders, the system's limit reached) rescanned when used,
 * at most every `rescanEveryMs`, with a log line saying so.
 */
export class FileIndex {
  private entries = new Map<string, Entry>()
  private rules: IgnoreRules
  private complete = true
  private version = 0
  /** The last query's matches: typing one more letter only narrows them. */
  private narrowed: { query: string; version: number; matches: Entry[] } | null = null
  private listed: { version: number; entries: Entry[] } | null = null
  private watcher: TreeWatcher | null = null
  private watching = true
  private scanning: Promise<void> | null = null
  private lastScan = 0
  /** Paths to look at again, each with whether it was made, removed or renamed. */
  private readonly pending = new Map<string, boolean>()
  private rescanWanted = false
  private timer: NodeJS.Timeout | null = null
  private applying: Promise<void> | null = null
  private closed = false
  private readonly firstScan: Promise<void>
  private readonly maxEntries: number
  private readonly log: (line: string) => void

  constructor(
    /** The project folder, canonical (checkFolder's answer). */
    readonly root: string,
    private readonly options: FileIndexOptions = {}
  ) {
    this.rules = new IgnoreRules(root)
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES
    this.log = options.log ?? ((line) => console.warn(line))
    this.firstScan = this.scan()
  }

  /** The best `limit` paths for `query`, best first, once the first scan is done. */
  async find(query: string, limit: number): Promise<FindResult> {
    await this.firstScan
    const stale = Date.now() - this.lastScan > (this.options.rescanEveryMs ?? RESCAN_EVERY_MS)
    if (!this.watching && stale && !this.scanning) void this.scan()
    const q = lowerSameLength(query.trim())
    const narrowed = this.narrowed
    const candidates =
      narrowed && narrowed.version === this.version && q.startsWith(narrowed.query)
        ? narrowed.matches
        : this.all()
    const top = new TopPaths<{ path: string; score: number; entry: Entry }>(limit)
    const matches: Entry[] = []
    const perfect = bestPossibleScore(q.length)
    // Once every path kept has the best possible score, only a shorter one could enter.
    let longest = Infinity
    for (const entry of candidates) {
      if (entry.path.length > longest) {
        if (matchesLowered(q, entry.lower)) matches.push(entry)
        continue
      }
      const score = scoreLowered(q, entry.path, entry.lower)
      if (score === null) continue
      matches.push(entry)
      if (!top.admits(score, entry.path)) continue
      top.offer({ path: entry.path, score, entry })
      const worst = top.worst
      if (worst && worst.score === perfect) longest = worst.path.length
    }
    if (q !== '') this.narrowed = { query: q, version: this.version, matches }
    return {
      items: top.best.map(({ entry }) => ({
        path: entry.path,
        kind: entry.dir ? 'folder' : 'file',
        positions: matchPositions(q, entry.path) ?? []
      })),
      total: matches.length,
      complete: this.complete
    }
  }

  /** Every entry, as an array: faster to run through per keystroke than the map. */
  private all(): Entry[] {
    if (this.listed?.version !== this.version) {
      this.listed = { version: this.version, entries: [...this.entries.values()] }
    }
    return this.listed.entries
  }

  close(): void {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    this.watcher?.close()
    this.watcher = null
  }

  /** Lists the whole tree afresh, watching each folder before it is read, then swaps it in. */
  private scan(): Promise<void> {
    const run = async (): Promise<void> => {
      const rules = new IgnoreRules(this.root)
      const next = new Map<string, Entry>()
      let complete = true
      const watcher = this.watching ? this.newWatcher() : null
      watcher?.add('')
      await walkEntries({ root: this.root, start: '', rules }, (relative, isDirectory) => {
        if (next.size >= this.maxEntries) {
          complete = false
          return false
        }
        next.set(relative, entryOf(relative, isDirectory))
        if (isDirectory) watcher?.add(relative)
        return true
      })
      this.watcher?.close()
      this.watcher = this.closed ? null : watcher
      if (this.closed) watcher?.close()
      this.entries = next
      this.rules = rules
      this.complete = complete
      this.version++
      this.lastScan = Date.now()
    }
    const scanning = run().finally(() => {
      this.scanning = null
      this.schedule()
    })
    this.scanning = scanning
    return scanning
  }

  private newWatcher(): TreeWatcher {
    return new TreeWatcher({
      root: this.root,
      maxWatchedDirs: this.options.maxWatchedDirs ?? MAX_WATCHED_DIRS,
      onChange: (relative, renamed) => {
        this.pending.set(relative, renamed || (this.pending.get(relative) ?? false))
        this.schedule()
      },
      onUnknownChange: () => {
        this.rescanWanted = true
        this.schedule()
      },
      onFailure: (reason) => {
        this.watching = false
        const every = Math.round((this.options.rescanEveryMs ?? RESCAN_EVERY_MS) / 1000)
        this.log(
          `file finder: cannot watch ${this.root} (${reason}); its list is rescanned when ` +
            `used, at most every ${every} s`
        )
      }
    })
  }

  /** Looks at the gathered changes soon, one batch at a time, never during a scan. */
  private schedule(): void {
    if (this.closed || this.timer || this.scanning || this.applying) return
    if (this.pending.size === 0 && !this.rescanWanted) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.applying = this.applyPending().finally(() => {
        this.applying = null
        this.schedule()
      })
    }, SETTLE_MS)
    this.timer.unref()
  }

  private async applyPending(): Promise<void> {
    // Shallowest first: a folder swapped for a link is dropped before anything below it is seen.
    const changed = [...this.pending].sort(([a], [b]) => depthOf(a) - depthOf(b))
    this.pending.clear()
    for (const [relative, renamed] of changed) {
      if (this.closed) return
      if (relative === '' || inGit(relative)) continue
      // New rules can change what is listed anywhere below: list again rather than guess.
      if (path.posix.basename(relative) === '.gitignore') this.rescanWanted = true
      else await this.recheck(relative, renamed)
    }
    if (this.rescanWanted && !this.closed) {
      this.rescanWanted = false
      await this.scan()
    }
  }

  /** Brings one path's entry up to date with what is on disk now. */
  private async recheck(relative: string, renamed: boolean): Promise<void> {
    const parent = parentOf(relative)
    const listed = this.entries.get(relative)
    if (parent !== '' && !this.entries.get(parent)?.dir) {
      // Below a folder that is not listed (gone, ignored, a link): nothing to show.
      if (listed) this.remove(relative)
      return
    }
    const stats = await statExactly(this.root, parent, path.posix.basename(relative))
    const isDirectory = stats?.isDirectory() ?? false
    const usable = stats !== null && (isDirectory || stats.isFile())
    if (!usable || this.rules.isIgnored(relative, isDirectory)) {
      if (listed) this.remove(relative)
      return
    }
    if (listed && listed.dir === isDirectory) {
      if (!isDirectory) return
      // A folder's own change (its attributes, a folder made in it) leaves what is below it to
      // the watches below; only a name made or renamed anew may be another folder now.
      if (listed.ino === stats.ino || (listed.ino === 0 && !renamed)) {
        listed.ino = stats.ino
        return
      }
    }
    // The watches of what was there go; the new folder's are set before it is read.
    if (listed?.dir) this.watcher?.removeUnder(relative)
    const below: [string, boolean][] = []
    if (isDirectory) {
      this.watcher?.add(relative)
      await walkEntries(
        { root: this.root, start: relative, rules: this.rules },
        (under, underIsDirectory) => {
          below.push([under, underIsDirectory])
          if (underIsDirectory) this.watcher?.add(under)
          return below.length < this.maxEntries
        }
      )
    }
    // Swapped in at once, so no answer sees the folder half listed.
    if (listed) this.removeEntries(relative)
    if (!this.add(relative, isDirectory, stats.ino)) return
    for (const [under, underIsDirectory] of below) if (!this.add(under, underIsDirectory, 0)) return
  }

  private add(relative: string, isDirectory: boolean, ino: number): boolean {
    if (this.entries.size >= this.maxEntries) {
      this.complete = false
      return false
    }
    this.entries.set(relative, { ...entryOf(relative, isDirectory), ino })
    this.version++
    return true
  }

  private remove(relative: string): void {
    if (this.removeEntries(relative)) this.watcher?.removeUnder(relative)
  }

  /** Drops a path and, for a folder, everything below it; true when it was a folder. */
  private removeEntries(relative: string): boolean {
    const entry = this.entries.get(relative)
    this.entries.delete(relative)
    this.version++
    if (!entry?.dir) return false
    const prefix = `${relative}/`
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key)
    return true
  }
}

function entryOf(relative: string, isDirectory: boolean): Entry {
  return { path: relative, lower: lowerSameLength(relative), dir: isDirectory, ino: 0 }
}

/**
 * What is at `name` in the folder `parent`, looked at through a descriptor proved to be that
 * folder (no link on the way followed); null when nothing is there or the way is not a folder.
 */
async function statExactly(root: string, parent: string, name: string): Promise<Stats | null> {
  let dir: JailedDir
  try {
    dir = await JailedDir.openExact(path.join(root, parent))
  } catch {
    return null
  }
  try {
    return await dir.lstat(name)
  } catch {
    return null
  } finally {
    await dir.close()
  }
}
