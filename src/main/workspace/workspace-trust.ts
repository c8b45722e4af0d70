import { mkdir, readFile, realpath } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'
import type { FolderTrust } from '../../shared/domain'
import { writeFileAtomic } from './atomic-write'
import { checkFolder } from './check-folder'

/** An answer the person gave: unknown is the absence of one. */
export type TrustAnswer = Exclude<FolderTrust, 'unknown'>

const entrySchema = z.object({
  path: z.string(),
  trust: z.enum(['trusted', 'untrusted']),
  decidedAt: z.number(),
  /** `recent`: counted as trusted because it was opened before trust was asked. */
  from: z.enum(['person', 'recent']).optional()
})
type Entry = z.infer<typeof entrySchema>

const fileSchema = z.object({ version: z.literal(1), folders: z.array(z.unknown()) })

export interface WorkspaceTrustOptions {
  /** `--trust-project`: every folder counts as trusted for this run; nothing is stored. */
  trustAll?: boolean
}

/**
 * Whether the person trusts the authors of each project folder, kept in
 * `<dataDir>/workspace-trust.json` by real path. A folder nobody has answered for is `unknown`,
 * which counts as untrusted wherever it matters. Folders already in the recent list when this
 * file is first made count as trusted: they were opened before Mecatl asked.
 */
export class WorkspaceTrust {
  private readonly file: string
  private readonly recentFile: string
  /** Every read and write goes through here, so an answer is never lost to a concurrent one. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(
    dataDir: string,
    private readonly options: WorkspaceTrustOptions = {}
  ) {
    this.file = path.join(dataDir, 'workspace-trust.json')
    this.recentFile = path.join(dataDir, 'recent-folders.json')
  }

  /** The folder's trust for this run; `unknown` also for a folder that cannot be found. */
  async get(folder: string): Promise<FolderTrust> {
    if (this.options.trustAll) return 'trusted'
    const real = await realpath(folder).catch(() => null)
    if (real === null) return 'unknown'
    try {
      const entries = await this.serial(() => this.entries())
      return entries.find((entry) => entry.path === real)?.trust ?? 'unknown'
    } catch {
      // Unreadable or unmigratable: ask again rather than guess.
      return 'unknown'
    }
  }

  /** Whether what is read from the folder may count as the person's own (not untrusted input). */
  async isTrusted(folder: string): Promise<boolean> {
    return (await this.get(folder)) === 'trusted'
  }

  /** Records the person's answer for the folder; throws when it could not be saved. */
  async set(folder: string, trust: TrustAnswer, now = Date.now()): Promise<void> {
    const real = await checkFolder(folder)
    await this.serial(async () => {
      const rest = (await this.entries().catch(() => [])).filter((entry) => entry.path !== real)
      await this.write([...rest, { path: real, trust, decidedAt: now, from: 'person' }])
    })
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task)
    this.queue = run.catch(() => undefined)
    return run
  }

  /**
   * The stored answers, made from the recent list the first time there is no file. A file that
   * cannot be parsed holds no answers, and is not migrated again: that could trust a folder
   * opened (and distrusted) since.
   */
  private async entries(): Promise<Entry[]> {
    let text: string
    try {
      text = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      return this.migrate()
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return []
    }
    const file = fileSchema.safeParse(parsed)
    if (!file.success) return []
    return file.data.folders.flatMap((raw) => {
      const entry = entrySchema.safeParse(raw)
      return entry.success ? [entry.data] : []
    })
  }

  private async migrate(): Promise<Entry[]> {
    const now = Date.now()
    const entries = (await this.recentFolders()).map((folder): Entry => ({
      path: folder,
      trust: 'trusted',
      decidedAt: now,
      from: 'recent'
    }))
    await this.write(entries)
    return entries
  }

  /** The recent list's folders, read as leniently as RecentFolders reads it. */
  private async recentFolders(): Promise<string[]> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.recentFile, 'utf8'))
      if (!Array.isArray(parsed)) return []
      const paths = parsed.flatMap((entry: unknown) => {
        const item = z.object({ path: z.string() }).safeParse(entry)
        return item.success ? [item.data.path] : []
      })
      return [...new Set(paths)]
    } catch {
      return []
    }
  }

  private async write(entries: Entry[]): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true })
    await writeFileAtomic(this.file, JSON.stringify({ version: 1, folders: entries }, null, 2))
  }
}
