import { mkdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { writeFileAtomic } from './atomic-write'

export interface RecentFolder {
  path: string
  openedAt: number
}

const LIMIT = 12

/** The folders a person opened lately, newest first, kept in the data directory. */
export class RecentFolders {
  constructor(private readonly filePath: string) {}

  async list(): Promise<RecentFolder[]> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.filePath, 'utf8'))
      if (!Array.isArray(parsed)) return []
      return parsed.filter(
        (entry): entry is RecentFolder =>
          typeof entry?.path === 'string' && typeof entry?.openedAt === 'number'
      )
    } catch {
      return []
    }
  }

  async add(folder: string, now = Date.now()): Promise<void> {
    const rest = (await this.list()).filter((entry) => entry.path !== folder)
    const next = [{ path: folder, openedAt: now }, ...rest].slice(0, LIMIT)
    await mkdir(path.dirname(this.filePath), { recursive: true })
    await writeFileAtomic(this.filePath, JSON.stringify(next, null, 2))
  }
}
