import { FileIndex, type FileIndexOptions } from './file-index'

/** Folders whose index is kept at once; the one used longest ago is let go past it. */
const MAX_OPEN_FOLDERS = 4

/**
 * The `@` finder's indexes, one per project folder, each made on first use and kept (with its
 * watcher) while the folder is used; a bounded few, so memory and inotify watches stay bounded
 * however many folders a long-running process is asked about.
 */
export class FileIndexes {
  private readonly open = new Map<string, FileIndex>()

  constructor(private readonly options: FileIndexOptions = {}) {}

  /** The index of a canonical folder (checkFolder's answer), made now if there is none. */
  of(folder: string): FileIndex {
    let index = this.open.get(folder)
    if (index) {
      // Most recently used last, so the first one is the one to let go.
      this.open.delete(folder)
    } else {
      index = new FileIndex(folder, this.options)
    }
    this.open.set(folder, index)
    for (const [oldest, dropped] of this.open) {
      if (this.open.size <= MAX_OPEN_FOLDERS) break
      dropped.close()
      this.open.delete(oldest)
    }
    return index
  }

  /** Stops every watcher; for the core's dispose. */
  close(): void {
    for (const index of this.open.values()) index.close()
    this.open.clear()
  }
}
