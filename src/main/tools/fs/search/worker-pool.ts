import os from 'node:os'
import { Worker } from 'node:worker_threads'
import { createFileSearcher, type BatchResult, type SearchSpec } from './file-searcher'

/** Idle workers are stopped after this long, so a quiet app holds no threads. */
const IDLE_MS = 30_000

interface Task {
  /** Whoever asked, so a search that stops early can drop what it queued. */
  owner: object
  root: string
  files: string[]
  spec: SearchSpec
  resolve: (result: BatchResult) => void
  reject: (error: Error) => void
}

interface Slot {
  worker: Worker
  task: Task | null
}

/**
 * A few worker threads that search batches of files, shared by every Grep of the process (two
 * Greps at once share them). Started on first use and stopped when idle; they never keep the
 * process alive.
 */
export class SearchPool {
  private readonly slots: Slot[] = []
  private readonly queue: Task[] = []
  private idleTimer: NodeJS.Timeout | null = null
  private nextId = 0

  constructor(readonly size: number = defaultPoolSize()) {}

  /** Searches one batch of files (relative to `root`) on the next free worker. */
  search(owner: object, root: string, files: string[], spec: SearchSpec): Promise<BatchResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ owner, root, files, spec, resolve, reject })
      this.pump()
    })
  }

  /** Drops the batches of `owner` not yet started; each resolves as if it found nothing. */
  cancel(owner: object): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const task = this.queue[i]
      if (task?.owner === owner) {
        this.queue.splice(i, 1)
        task.resolve({ files: [], filesScanned: 0, bytesScanned: 0 })
      }
    }
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer)
    const slots = this.slots.splice(0)
    await Promise.all(slots.map((slot) => slot.worker.terminate()))
  }

  private pump(): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer)
      this.idleTimer = null
    }
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.task === null)
      if (!slot && this.slots.length < this.size) slot = this.spawn()
      if (!slot) return
      const task = this.queue.shift() as Task
      slot.task = task
      slot.worker.ref()
      slot.worker.postMessage({
        id: ++this.nextId,
        root: task.root,
        files: task.files,
        spec: task.spec
      })
    }
    if (this.slots.every((s) => s.task === null)) {
      this.idleTimer = setTimeout(() => void this.close(), IDLE_MS)
      this.idleTimer.unref()
    }
  }

  private spawn(): Slot {
    // The searcher is self-contained, so its source runs as it is in the worker, with no build
    // step and no file to find at run time (the app is bundled; tests run the sources).
    const source = `(${createFileSearcher.toString()})().serve()`
    const worker = new Worker(source, { eval: true })
    const slot: Slot = { worker, task: null }
    worker.unref()
    worker.on('message', (message: { result: BatchResult }) => {
      const task = slot.task
      slot.task = null
      worker.unref()
      task?.resolve(message.result)
      this.pump()
    })
    const fail = (error: Error): void => {
      const index = this.slots.indexOf(slot)
      if (index !== -1) this.slots.splice(index, 1)
      slot.task?.reject(error)
      slot.task = null
      this.pump()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => {
      if (slot.task) fail(new Error(`a search worker stopped (exit code ${code})`))
      else {
        const index = this.slots.indexOf(slot)
        if (index !== -1) this.slots.splice(index, 1)
      }
    })
    this.slots.push(slot)
    return slot
  }
}

function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()))
}

let shared: SearchPool | null = null

/** The process's search pool. */
export function searchPool(): SearchPool {
  shared ??= new SearchPool()
  return shared
}
